#pragma once
// The type of a message's `sequence<uint8>` / `sequence<octet>` member (Image.data,
// PointCloud2.data, CompressedImage.data, ...): its own bytes, as a vector, or a view of bytes
// that live elsewhere — a sensor's finished image — for as long as the message is published.
// A sample is serialised (CDR, Cyclone) straight from the sensor's buffer, without first copying
// megabytes into the message.
//
// Reading it never copies; changing it (resize, assign, a non-const operator[]) first makes the
// bytes its own. A copy of a Bytes owns its bytes, so a copied message never points into a
// sensor; a move keeps the view.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace ubot::ros2 {

class Bytes {
 public:
  Bytes() = default;
  Bytes(std::initializer_list<std::uint8_t> bytes) : owned_(bytes) {}
  Bytes(std::vector<std::uint8_t> bytes) : owned_(std::move(bytes)) {}  // NOLINT: as a vector
  Bytes(const Bytes& other) : owned_(other.begin(), other.end()) {}
  Bytes& operator=(const Bytes& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  Bytes(Bytes&&) noexcept = default;
  Bytes& operator=(Bytes&&) noexcept = default;

  // Views `bytes`, which must outlive every use of this Bytes (and of its moves). Its own
  // buffer keeps its capacity, for when it owns bytes again.
  void view(std::span<const std::uint8_t> bytes) {
    view_ = bytes;
    viewing_ = true;
  }
  bool is_view() const { return viewing_; }

  std::span<const std::uint8_t> span() const {
    return viewing_ ? view_ : std::span<const std::uint8_t>(owned_);
  }
  const std::uint8_t* data() const { return span().data(); }
  std::size_t size() const { return span().size(); }
  bool empty() const { return size() == 0; }
  const std::uint8_t* begin() const { return data(); }
  const std::uint8_t* end() const { return data() + size(); }
  const std::uint8_t& operator[](std::size_t i) const { return span()[i]; }

  // The bytes as a vector of its own (a view is copied into it first).
  std::vector<std::uint8_t>& own() {
    if (viewing_) {
      owned_.assign(view_.begin(), view_.end());
      view_ = {};
      viewing_ = false;
    }
    return owned_;
  }
  std::uint8_t* data() { return own().data(); }
  std::uint8_t& operator[](std::size_t i) { return own()[i]; }
  void resize(std::size_t n) { own().resize(n); }
  void push_back(std::uint8_t v) { own().push_back(v); }
  template <class It>
  void assign(It first, It last) {
    std::vector<std::uint8_t> bytes(first, last);  // `first` may point into this Bytes
    view_ = {};
    viewing_ = false;
    owned_ = std::move(bytes);
  }
  void assign(std::size_t n, std::uint8_t value) {
    view_ = {};
    viewing_ = false;
    owned_.assign(n, value);
  }

  friend bool operator==(const Bytes& a, const Bytes& b) {
    return std::ranges::equal(a.span(), b.span());
  }
  friend bool operator==(const Bytes& a, const std::vector<std::uint8_t>& b) {
    return std::ranges::equal(a.span(), b);
  }

 private:
  std::vector<std::uint8_t> owned_;
  std::span<const std::uint8_t> view_;
  bool viewing_ = false;
};

}  // namespace ubot::ros2
