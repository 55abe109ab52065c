#include "ubot/ros2/cyclone_transport.h"

#include <dds/dds.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>
#include <map>
#include <vector>

#include "cyclone_convert.h"
#include "ubot/core/error.h"
#include "ubot/ros2/names.h"
#include "ubot/ros2/type_hash.h"

namespace ubot::ros2 {
namespace {

constexpr int kTakeBatch = 16;

dds_entity_t check(dds_entity_t result, std::string_view what) {
  if (result < 0) throw Error(fmt::format("CycloneDDS: {}: {}", what, dds_strretcode(result)));
  return result;
}

const dds_topic_descriptor_t* descriptor(MessageKind kind) {
  switch (kind) {
#define UBOT_DESC(T, pkg) \
  case MessageKind::k##T: \
    return cyclone::CType<T>::descriptor();
    UBOT_ROS2_MESSAGE_TYPES(UBOT_DESC)
#undef UBOT_DESC
  }
  return nullptr;
}

// Endpoint QoS as rmw_cyclonedds sets it, with the REP 2011 type hash in USER_DATA.
class QosHandle {
 public:
  QosHandle(const Qos& qos, MessageKind kind, bool writer) : qos_(dds_create_qos()) {
    dds_qset_reliability(qos_,
                         qos.reliability == Reliability::kReliable ? DDS_RELIABILITY_RELIABLE
                                                                   : DDS_RELIABILITY_BEST_EFFORT,
                         DDS_MSECS(100));
    dds_qset_durability(qos_, qos.durability == Durability::kTransientLocal
                                  ? DDS_DURABILITY_TRANSIENT_LOCAL
                                  : DDS_DURABILITY_VOLATILE);
    dds_qset_history(qos_, DDS_HISTORY_KEEP_LAST, qos.depth);
    const std::string user_data = fmt::format("typehash={};", type_hash(kind));
    dds_qset_userdata(qos_, user_data.data(), user_data.size());
    // Writers send XCDR1 (what ROS 2 nodes of every RMW read); readers also accept XCDR2.
    const dds_data_representation_id_t reps[] = {DDS_DATA_REPRESENTATION_XCDR1,
                                                 DDS_DATA_REPRESENTATION_XCDR2};
    dds_qset_data_representation(qos_, writer ? 1 : 2, reps);
  }
  ~QosHandle() { dds_delete_qos(qos_); }
  QosHandle(const QosHandle&) = delete;
  QosHandle& operator=(const QosHandle&) = delete;
  const dds_qos_t* get() const { return qos_; }

 private:
  dds_qos_t* qos_;
};

template <class M>
void write_as_c(dds_entity_t writer, const void* message, cyclone::Scratch& scratch) {
  typename cyclone::CType<M>::type c{};
  scratch.reset();  // the last message's blocks, reused: a run's writes must not grow it
  cyclone::to_c(*static_cast<const M*>(message), c, scratch);
  // Errors (e.g. a reliable write timing out on a stalled reader) drop this sample: a sink must
  // not stop the simulation.
  dds_write(writer, &c);
}

void write_kind(MessageKind kind, dds_entity_t writer, const void* message,
                cyclone::Scratch& scratch) {
  switch (kind) {
#define UBOT_WRITE(T, pkg) \
  case MessageKind::k##T:  \
    return write_as_c<T>(writer, message, scratch);
    UBOT_ROS2_MESSAGE_TYPES(UBOT_WRITE)
#undef UBOT_WRITE
  }
}

template <class M>
int take_as_c(dds_entity_t reader, const RawCallback& callback) {
  int delivered = 0;
  void* samples[kTakeBatch];
  dds_sample_info_t infos[kTakeBatch];
  for (;;) {
    std::fill(std::begin(samples), std::end(samples), nullptr);  // null: take on loan
    const dds_return_t n = dds_take(reader, samples, infos, kTakeBatch, kTakeBatch);
    if (n <= 0) return delivered;
    for (dds_return_t i = 0; i < n; ++i) {
      if (!infos[i].valid_data) continue;
      M message;
      cyclone::from_c(*static_cast<const typename cyclone::CType<M>::type*>(samples[i]), message);
      callback(&message, "");
      ++delivered;
    }
    dds_return_loan(reader, samples, n);
    if (n < kTakeBatch) return delivered;
  }
}

int take_kind(MessageKind kind, dds_entity_t reader, const RawCallback& callback) {
  switch (kind) {
#define UBOT_TAKE(T, pkg) \
  case MessageKind::k##T: \
    return take_as_c<T>(reader, callback);
    UBOT_ROS2_MESSAGE_TYPES(UBOT_TAKE)
#undef UBOT_TAKE
  }
  return 0;
}

class CycloneTransport;

class CycloneWriter final : public RawWriter {
 public:
  CycloneWriter(dds_entity_t writer, MessageKind kind) : writer_(writer), kind_(kind) {}
  ~CycloneWriter() override { dds_delete(writer_); }
  void write(const void* message) override { write_kind(kind_, writer_, message, scratch_); }

 private:
  dds_entity_t writer_;
  MessageKind kind_;
  cyclone::Scratch scratch_;
};

class CycloneTransport final : public Transport {
 public:
  explicit CycloneTransport(int domain_id) {
    dds_qos_t* qos = dds_create_qos();
    const char enclave[] = "enclave=/;";
    dds_qset_userdata(qos, enclave, sizeof(enclave) - 1);
    participant_ = dds_create_participant(static_cast<dds_domainid_t>(domain_id), qos, nullptr);
    dds_delete_qos(qos);
    check(participant_, fmt::format("cannot create a participant on domain {} (check "
                                    "CYCLONEDDS_URI and ROS_DOMAIN_ID)",
                                    domain_id));
    waitset_ = check(dds_create_waitset(participant_), "cannot create a waitset");
  }
  ~CycloneTransport() override {
    readers_.clear();
    dds_delete(participant_);
  }

  std::unique_ptr<RawWriter> create_writer(const std::string& topic, MessageKind kind,
                                           const Qos& qos) override {
    const QosHandle q(qos, kind, true);
    const dds_entity_t writer =
        check(dds_create_writer(participant_, find_topic(topic, kind), q.get(), nullptr),
              fmt::format("cannot create a writer for {}", topic));
    return std::make_unique<CycloneWriter>(writer, kind);
  }

  std::unique_ptr<RawSubscription> subscribe(const std::string& topic, MessageKind kind,
                                             const Qos& qos, RawCallback callback) override;

  int spin(Nanos timeout) override {
    int delivered = take_all();
    if (delivered > 0 || timeout <= 0) return delivered;
    if (dds_waitset_wait(waitset_, nullptr, 0, timeout) > 0) delivered = take_all();
    return delivered;
  }

  void remove_reader(dds_entity_t reader) {
    const auto it = readers_.find(reader);
    if (it == readers_.end()) return;
    dds_waitset_detach(waitset_, it->second.condition);
    dds_delete(reader);  // also deletes its read condition
    readers_.erase(it);
  }

 private:
  struct Reader {
    MessageKind kind;
    RawCallback callback;
    dds_entity_t condition;
  };

  dds_entity_t find_topic(const std::string& topic, MessageKind kind) {
    const std::string name = dds_topic(topic);
    if (const auto it = topics_.find(name); it != topics_.end()) return it->second;
    const dds_entity_t t =
        check(dds_create_topic(participant_, descriptor(kind), name.c_str(), nullptr, nullptr),
              fmt::format("cannot create topic {} ({})", name, message_type(kind).dds_name));
    topics_.emplace(name, t);
    return t;
  }

  int take_all() {
    int delivered = 0;
    std::vector<dds_entity_t> ids;
    for (const auto& [reader, r] : readers_) ids.push_back(reader);
    for (dds_entity_t reader : ids) {
      const auto it = readers_.find(reader);
      if (it == readers_.end()) continue;  // unsubscribed by a callback
      const RawCallback callback = it->second.callback;
      delivered += take_kind(it->second.kind, reader, callback);
    }
    return delivered;
  }

  dds_entity_t participant_ = 0;
  dds_entity_t waitset_ = 0;
  std::map<std::string, dds_entity_t> topics_;
  std::map<dds_entity_t, Reader> readers_;
};

class CycloneSubscription final : public RawSubscription {
 public:
  CycloneSubscription(CycloneTransport& owner, dds_entity_t reader)
      : owner_(owner), reader_(reader) {}
  ~CycloneSubscription() override { owner_.remove_reader(reader_); }

 private:
  CycloneTransport& owner_;
  dds_entity_t reader_;
};

std::unique_ptr<RawSubscription> CycloneTransport::subscribe(const std::string& topic,
                                                             MessageKind kind, const Qos& qos,
                                                             RawCallback callback) {
  const QosHandle q(qos, kind, false);
  const dds_entity_t reader =
      check(dds_create_reader(participant_, find_topic(topic, kind), q.get(), nullptr),
            fmt::format("cannot create a reader for {}", topic));
  const dds_entity_t condition = dds_create_readcondition(reader, DDS_ANY_STATE);
  if (condition < 0 || dds_waitset_attach(waitset_, condition, reader) < 0) {
    dds_delete(reader);
    check(condition < 0 ? condition : DDS_RETCODE_ERROR, "cannot wait for a reader");
  }
  readers_[reader] = {kind, std::move(callback), condition};
  return std::make_unique<CycloneSubscription>(*this, reader);
}

}  // namespace

int ros_domain_id_from_env() {
  const char* env = std::getenv("ROS_DOMAIN_ID");
  if (!env || !*env) return 0;
  char* end = nullptr;
  const long id = std::strtol(env, &end, 10);
  if (*end != '\0' || id < 0 || id > 232) {
    throw Error(fmt::format("ROS_DOMAIN_ID='{}': expected an integer in [0, 232]", env));
  }
  return static_cast<int>(id);
}

std::unique_ptr<Transport> make_cyclone_transport(const CycloneOptions& options) {
  const int domain = options.domain_id ? *options.domain_id : ros_domain_id_from_env();
  if (domain < 0 || domain > 232) {
    throw Error(fmt::format("ROS domain id {} is outside [0, 232]", domain));
  }
  return std::make_unique<CycloneTransport>(domain);
}

}  // namespace ubot::ros2
