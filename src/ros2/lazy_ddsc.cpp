// CycloneDDS, loaded when the ROS 2 bridge first calls it. Linking libddsc made every start of
// `ubot` and every `import ubot` load it and its dependencies (iceoryx, libssl: about 2 ms of a
// 12 ms start, docs/benchmarks.md, "Start-up"), though only `--ros2` uses them. So nothing links
// it: the few functions the transport calls are defined here, each resolving the real one from
// the library, opened by its soname (UBOT_DDSC_SONAME, from CMake) on the first call. A
// CycloneDDS function the transport starts to call needs its line below (the link says which).
#include <dds/dds.h>
#include <dlfcn.h>
#include <fmt/format.h>

#include "ubot/core/error.h"

namespace {

void* ddsc_library() {
  static void* const library = dlopen(UBOT_DDSC_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    throw ubot::Error(fmt::format("the ROS 2 bridge needs CycloneDDS ({}), which did not load: {}",
                                  UBOT_DDSC_SONAME, dlerror()));
  }
  return library;
}

// `name` in CycloneDDS (a handle's dlsym looks in the library itself, never at these stubs).
void* ddsc_function(const char* name) {
  void* const function = dlsym(ddsc_library(), name);
  if (function == nullptr) {
    throw ubot::Error(fmt::format("CycloneDDS ({}) has no function {}", UBOT_DDSC_SONAME, name));
  }
  return function;
}

}  // namespace

// Each stub finds its function once (a function-local static: thread-safe) and calls it.
#define UBOT_DDSC(ret, name, params, args)                                            \
  ret name params {                                                                   \
    static const auto real = reinterpret_cast<decltype(&name)>(ddsc_function(#name)); \
    return real args;                                                                 \
  }

extern "C" {

UBOT_DDSC(dds_entity_t, dds_create_participant,
          (const dds_domainid_t domain, const dds_qos_t* qos, const dds_listener_t* listener),
          (domain, qos, listener))
UBOT_DDSC(dds_entity_t, dds_create_topic,
          (dds_entity_t participant, const dds_topic_descriptor_t* descriptor, const char* name,
           const dds_qos_t* qos, const dds_listener_t* listener),
          (participant, descriptor, name, qos, listener))
UBOT_DDSC(dds_entity_t, dds_create_reader,
          (dds_entity_t participant, dds_entity_t topic, const dds_qos_t* qos,
           const dds_listener_t* listener),
          (participant, topic, qos, listener))
UBOT_DDSC(dds_entity_t, dds_create_writer,
          (dds_entity_t participant, dds_entity_t topic, const dds_qos_t* qos,
           const dds_listener_t* listener),
          (participant, topic, qos, listener))
UBOT_DDSC(dds_entity_t, dds_create_readcondition, (dds_entity_t reader, uint32_t mask),
          (reader, mask))
UBOT_DDSC(dds_entity_t, dds_create_waitset, (dds_entity_t participant), (participant))
UBOT_DDSC(dds_return_t, dds_waitset_attach,
          (dds_entity_t waitset, dds_entity_t entity, dds_attach_t x), (waitset, entity, x))
UBOT_DDSC(dds_return_t, dds_waitset_detach, (dds_entity_t waitset, dds_entity_t entity),
          (waitset, entity))
UBOT_DDSC(dds_return_t, dds_waitset_wait,
          (dds_entity_t waitset, dds_attach_t* xs, size_t nxs, dds_duration_t reltimeout),
          (waitset, xs, nxs, reltimeout))
UBOT_DDSC(dds_return_t, dds_delete, (dds_entity_t entity), (entity))
UBOT_DDSC(dds_return_t, dds_write, (dds_entity_t writer, const void* data), (writer, data))
UBOT_DDSC(dds_return_t, dds_take,
          (dds_entity_t reader_or_condition, void** buf, dds_sample_info_t* si, size_t bufsz,
           uint32_t maxs),
          (reader_or_condition, buf, si, bufsz, maxs))
UBOT_DDSC(dds_return_t, dds_return_loan, (dds_entity_t entity, void** buf, int32_t bufsz),
          (entity, buf, bufsz))
UBOT_DDSC(const char*, dds_strretcode, (dds_return_t ret), (ret))
UBOT_DDSC(dds_qos_t*, dds_create_qos, (void), ())
UBOT_DDSC(void, dds_delete_qos, (dds_qos_t * qos), (qos))
UBOT_DDSC(void, dds_qset_reliability,
          (dds_qos_t * qos, dds_reliability_kind_t kind, dds_duration_t max_blocking_time),
          (qos, kind, max_blocking_time))
UBOT_DDSC(void, dds_qset_durability, (dds_qos_t * qos, dds_durability_kind_t kind), (qos, kind))
UBOT_DDSC(void, dds_qset_history, (dds_qos_t * qos, dds_history_kind_t kind, int32_t depth),
          (qos, kind, depth))
UBOT_DDSC(void, dds_qset_userdata, (dds_qos_t * qos, const void* value, size_t sz),
          (qos, value, sz))
UBOT_DDSC(void, dds_qset_data_representation,
          (dds_qos_t * qos, uint32_t n, const dds_data_representation_id_t* values),
          (qos, n, values))

}  // extern "C"
