#pragma once
// The bytes of a saved running state (Simulation::save_state, docs/determinism.md "State
// files"), written and read by the same functions: each state type has one
// `void io(StateIo&, T&)` that lists its fields in order, and a StateIo either appends them to
// its bytes (writing) or reads them back into the object (reading). So saving and loading cannot
// drift apart, and a new field is one line.
//
// Encoding: little-endian fixed-width integers and IEEE-754 doubles / floats (bit for bit: a
// state restored from bytes continues byte-identically), bools as one byte 0 / 1, strings and
// sequences as a u64 count then their items. Reading checks every count against the bytes left
// before anything is allocated (an item takes at least one byte), every bool is 0 or 1, and a
// read past the end is an ubot::Error naming the offset and the section being read: a damaged
// or hostile file is an error, never a crash or an outsized allocation.
//
// Writing from a const object goes through `io(s, const_cast<T&>(x))`: writing never changes it.
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace ubot {

class StateIo {
 public:
  // Appends to an empty byte string.
  static StateIo writer();
  // Reads `bytes` (which must outlive the StateIo); `what` names them in errors ("state file
  // s.bin").
  static StateIo reader(std::span<const std::uint8_t> bytes, std::string what);

  bool reading() const { return reading_; }
  // The bytes written so far (writer).
  const std::vector<std::uint8_t>& bytes() const { return out_; }
  std::vector<std::uint8_t> take_bytes() { return std::move(out_); }
  std::size_t offset() const { return at_; }  // reader: bytes read so far
  std::size_t left() const { return in_.size() - at_; }

  // Names the part being read, for errors ("world.objects[3]": name "objects", index 3);
  // restored by ~Section. Costs nothing when writing.
  class Section {
   public:
    Section(StateIo& io, std::string_view name, std::int64_t index = -1);
    ~Section();
    Section(const Section&) = delete;
    Section& operator=(const Section&) = delete;

   private:
    StateIo& io_;
    std::size_t size_;
  };

  // While one is alive, every double read must be finite and within max_abs (positions,
  // velocities, shapes: what a running world can hold), else an error names the section.
  class Bound {
   public:
    Bound(StateIo& io, double max_abs) : io_(io), saved_(io.max_abs_) { io.max_abs_ = max_abs; }
    ~Bound() { io_.max_abs_ = saved_; }
    Bound(const Bound&) = delete;
    Bound& operator=(const Bound&) = delete;

   private:
    StateIo& io_;
    double saved_;
  };

  void value(bool& v);
  void value(std::uint8_t& v);
  void value(std::uint16_t& v);
  void value(std::uint32_t& v);
  void value(std::uint64_t& v);
  void value(std::int32_t& v);
  void value(std::int64_t& v);
  void value(float& v);
  void value(double& v);
  void value(std::string& v);
  template <int R, int C>
  void value(Eigen::Matrix<double, R, C>& m) {
    for (int i = 0; i < R * C; ++i) value(m.data()[i]);
  }
  void value(Eigen::Quaterniond& q) { value(q.coeffs()); }

  // A sequence: its count (checked against the bytes left when reading, each item taking at
  // least `min_item_bytes`), then item(element) for each.
  template <class T, class F>
  void sequence(std::vector<T>& v, F&& item, std::size_t min_item_bytes = 1) {
    std::uint64_t n = v.size();
    count(n, min_item_bytes);
    if (reading_) {
      v.clear();
      v.resize(static_cast<std::size_t>(n));
    }
    for (T& x : v) item(x);
  }
  // A sequence of plain values (numbers, bools, strings, Eigen vectors).
  template <class T>
  void values(std::vector<T>& v) {
    if constexpr (kBulk<T>) {
      std::uint64_t n = v.size();
      count(n, sizeof(T));
      if (reading_) v.resize(static_cast<std::size_t>(n));
      bulk(v.data(), v.size());
    } else {
      sequence(
          v, [this](T& x) { value(x); }, min_bytes<T>());
    }
  }
  // A sequence whose length the model fixes (one entry per object, per beam, per pixel):
  // reading, the file must hold exactly v.size() items (else an error naming `what`).
  template <class T, class F>
  void same_size(std::vector<T>& v, std::string_view what, F&& item) {
    std::uint64_t n = v.size();
    count(n);
    if (reading_ && n != v.size()) mismatch(n, v.size(), what);
    for (T& x : v) item(x);
  }
  template <class T>
  void same_size(std::vector<T>& v, std::string_view what) {
    if constexpr (kBulk<T>) {
      std::uint64_t n = v.size();
      count(n, sizeof(T));
      if (reading_ && n != v.size()) mismatch(n, v.size(), what);
      bulk(v.data(), v.size());
    } else {
      same_size(v, what, [this](T& x) { value(x); });
    }
  }
  // A count of items to come (sequence() uses it); reading: at most left() / min_item_bytes.
  void count(std::uint64_t& n, std::size_t min_item_bytes = 1);

  // What ids in the state may refer to, set by the reader's owner before it reads: objects and
  // this step's media snapshots. ids() reads a list of them (each -1 or in [0, count)).
  std::int64_t object_count = 0;
  std::int64_t media_count = 0;
  // The earliest a running sensor's next sample can be due in a state a run leaves: one step
  // before the world's time (a sensor is due after its last sample; one step of slack for a
  // step cut short). Earlier would make the next step take every sample in between.
  std::int64_t earliest_due_ns = std::numeric_limits<std::int64_t>::min();
  void ids(std::vector<int>& v, std::int64_t count, std::string_view what);

  // Reading: a value outside what the state allows (an index out of range, a size that differs
  // from the model's) is an error naming the section.
  [[noreturn]] void fail(std::string_view message) const;
  [[noreturn]] void mismatch(std::uint64_t in_file, std::size_t here, std::string_view what) const;
  // Reading: fails unless every byte was read.
  void finish() const;

 private:
  // Numbers other than bool go as one block (their bytes are the format's: little-endian).
  template <class T>
  static constexpr bool kBulk = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;
  template <class T>
  void bulk(T* p, std::size_t n) {
    if (reading_) {
      get(p, n * sizeof(T));
      if constexpr (std::is_same_v<T, double>) check_bound(p, n);
    } else {
      put(p, n * sizeof(T));
    }
  }
  void check_bound(const double* p, std::size_t n) const;
  StateIo() = default;
  void put(const void* p, std::size_t n);
  void get(void* p, std::size_t n);
  template <class T>
  static constexpr std::size_t min_bytes() {
    if constexpr (std::is_arithmetic_v<T>) {
      return sizeof(T);
    } else if constexpr (requires { T::SizeAtCompileTime; }) {
      return sizeof(double) * static_cast<std::size_t>(T::SizeAtCompileTime);
    } else {
      return 1;
    }
  }

  bool reading_ = false;
  std::vector<std::uint8_t> out_;
  std::span<const std::uint8_t> in_;
  std::size_t at_ = 0;
  std::string what_;
  std::string section_;   // "a.b[3].c"
  double max_abs_ = 0.0;  // 0: any double (Bound)
};

}  // namespace ubot
