#include "ubot/mapping/point_map.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "ubot/core/error.h"

namespace ubot::mapping {
namespace {

// Voxel keys stay within ±2^30 so block keys (voxel >> 3) and their neighbours fit int32.
constexpr double kKeyLimit = 1073741824.0;
constexpr std::uint32_t kEmpty = 0xffffffffu;
constexpr double kSubVoxel = 65536.0;  // sub-voxel positions are 16-bit fixed point

struct BlockCoord {
  std::int32_t x = 0, y = 0, z = 0;
  bool operator==(const BlockCoord&) const = default;
};

// Well-mixed in the high bits (callers take the top bits).
std::uint64_t hash(const BlockCoord& c) {
  std::uint64_t h = static_cast<std::uint32_t>(c.x) * 0x9E3779B97F4A7C15ull;
  h ^= static_cast<std::uint32_t>(c.y) * 0xC2B2AE3D27D4EB4Full;
  h ^= static_cast<std::uint32_t>(c.z) * 0x165667B19E3779F9ull;
  return (h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ull;
}

constexpr int kRecentBits = 10;  // 1024 recently used blocks, 16 KiB

// A kept point inside its voxel: 16-bit fixed-point position within the voxel and intensity.
struct Slot {
  std::array<std::uint16_t, 3> q;
  std::uint16_t intensity;
};

std::uint16_t sub_voxel(double fraction) {
  const double s = fraction * kSubVoxel;
  return static_cast<std::uint16_t>(std::clamp(s, 0.0, kSubVoxel - 1.0));
}

// Local -> world for a kept point: voxel key (as doubles) plus its sub-voxel position, evaluated
// at every use from the map's fixed origin and resolution.
Eigen::Vector3d to_world(const Eigen::Vector3d& origin_W, double resolution,
                         const Eigen::Vector3d& voxel, const Slot& s) {
  const Eigen::Vector3d sub = (Eigen::Vector3d(s.q[0], s.q[1], s.q[2]).array() + 0.5) / kSubVoxel;
  return origin_W + (voxel + sub) * resolution;
}

}  // namespace

const char* policy_name(DedupPolicy policy) {
  return policy == DedupPolicy::kFirst ? "first" : "brighter";
}

struct PointMap::Impl {
  // 8x8x8 voxels; voxel index i = x | y << 3 | z << 6, so mask word z holds the 64 voxels of
  // one z layer and slots are kept in index order (rank = popcount of the lower bits).
  struct Block {
    BlockCoord coord;
    std::array<std::uint64_t, 8> mask{};
    std::vector<Slot> slots;
    std::vector<std::array<std::uint16_t, 3>> rgb;  // parallel to slots, colour maps only

    std::size_t rank(int index) const {
      const int word = index >> 6;
      std::size_t r = 0;
      for (int w = 0; w < word; ++w) r += std::popcount(mask[w]);
      return r + std::popcount(mask[word] & ((std::uint64_t{1} << (index & 63)) - 1));
    }
    bool has(int index) const { return (mask[index >> 6] >> (index & 63)) & 1u; }
  };
  struct Entry {
    BlockCoord coord;
    std::uint32_t index = kEmpty;
  };

  std::vector<Block> blocks;  // creation order; a block's index never changes
  std::vector<Entry> table;   // open addressing, power-of-two capacity, load <= 1/2
  int table_bits = 0;
  // Recently used blocks, remembered by index: a small direct-mapped front of the table that
  // lidar sweeps hit most of the time. Indices survive rehashes and storage reallocation, so
  // this never needs invalidating (it holds no positions and no translations).
  std::array<Entry, std::size_t{1} << kRecentBits> recent{};
  BlockCoord extent_min, extent_max;  // occupied block range (running)

  std::size_t slot(std::uint64_t h) const {
    return static_cast<std::size_t>(h >> (64 - table_bits));
  }
  const Entry* table_slot(std::uint64_t h) const {
    return table.empty() ? nullptr : &table[slot(h)];
  }
  Entry& recent_slot(std::uint64_t h) { return recent[h >> (64 - kRecentBits)]; }

  std::uint32_t find(const BlockCoord& c, std::uint64_t h) const {
    if (table.empty()) return kEmpty;
    const std::size_t m = table.size() - 1;
    for (std::size_t i = slot(h);; i = (i + 1) & m) {
      if (table[i].index == kEmpty) return kEmpty;
      if (table[i].coord == c) return table[i].index;
    }
  }

  void place(const BlockCoord& c, std::uint32_t index) {
    const std::size_t m = table.size() - 1;
    std::size_t i = slot(hash(c));
    while (table[i].index != kEmpty) i = (i + 1) & m;
    table[i] = {c, index};
  }

  void grow_table(PointMapCounters& counters) {
    std::vector<Entry> old = std::move(table);
    table_bits = std::max(table_bits + 1, 6);
    table.assign(std::size_t{1} << table_bits, Entry{});
    for (const Entry& e : old) {
      if (e.index != kEmpty) place(e.coord, e.index);
    }
    ++counters.rehashes;
  }

  std::uint32_t find_or_add(const BlockCoord& c, std::uint64_t h, PointMapCounters& counters) {
    Entry& r = recent_slot(h);
    if (r.index != kEmpty && r.coord == c) return r.index;
    std::uint32_t index = find(c, h);
    if (index == kEmpty) {
      if ((blocks.size() + 1) * 2 > table.size()) grow_table(counters);
      if (blocks.size() == blocks.capacity()) ++counters.relocations;
      index = static_cast<std::uint32_t>(blocks.size());
      blocks.emplace_back();
      blocks.back().coord = c;
      place(c, index);
      ++counters.blocks;
      extend(c, counters);
    }
    r = {c, index};
    return index;
  }

  void extend(const BlockCoord& c, PointMapCounters& counters) {
    if (blocks.size() == 1) {
      extent_min = extent_max = c;
      return;
    }
    const BlockCoord lo{std::min(extent_min.x, c.x), std::min(extent_min.y, c.y),
                        std::min(extent_min.z, c.z)};
    const BlockCoord hi{std::max(extent_max.x, c.x), std::max(extent_max.y, c.y),
                        std::max(extent_max.z, c.z)};
    if (!(lo == extent_min) || !(hi == extent_max)) ++counters.rebounds;
    extent_min = lo;
    extent_max = hi;
  }
};

PointMap::PointMap(const Eigen::Vector3d& origin_W, PointMapOptions options)
    : origin_W_(origin_W),
      resolution_(options.resolution),
      inverse_resolution_(1.0 / options.resolution),
      policy_(options.policy),
      color_(options.color),
      impl_(std::make_unique<Impl>()) {
  if (!(resolution_ >= 1e-4 && resolution_ <= 1000.0)) {
    throw Error(fmt::format("map resolution must be in [0.0001, 1000] m, got {}", resolution_));
  }
  if (!origin_W_.allFinite()) throw Error("map origin must be finite");
}

PointMap::~PointMap() = default;
PointMap::PointMap(PointMap&&) noexcept = default;

double PointMap::reach() const { return kKeyLimit * resolution_; }

// A point on its way into the map: its voxel and sub-voxel position, derived at this moment
// from the fixed origin and resolution (nothing cached).
struct PointMap::LocalPoint {
  bool valid = false;
  Eigen::Vector3d voxel;  // floor((p - origin) / resolution), as doubles
  BlockCoord block;
  std::uint64_t hash = 0;
  int index = 0;  // voxel within its block
  Slot slot{};
  std::uint32_t block_index = kEmpty;
};

void PointMap::to_local(const MapPoint& p, LocalPoint& l) const {
  const Eigen::Vector3d d = (p.position - origin_W_) * inverse_resolution_;
  l.valid = std::abs(d.x()) < kKeyLimit && std::abs(d.y()) < kKeyLimit &&
            std::abs(d.z()) < kKeyLimit;  // false for NaN too
  if (!l.valid) return;
  l.voxel = d.array().floor();
  const std::int32_t vx = static_cast<std::int32_t>(l.voxel.x());
  const std::int32_t vy = static_cast<std::int32_t>(l.voxel.y());
  const std::int32_t vz = static_cast<std::int32_t>(l.voxel.z());
  l.block = {vx >> 3, vy >> 3, vz >> 3};
  l.hash = hash(l.block);
  l.index = (vx & 7) | (vy & 7) << 3 | (vz & 7) << 6;
  const Eigen::Vector3d sub = d - l.voxel;
  l.slot = {{sub_voxel(sub.x()), sub_voxel(sub.y()), sub_voxel(sub.z())}, p.intensity};
}

bool PointMap::place(const LocalPoint& l, const MapPoint& p) {
  ++counters_.inserted;
  if (!l.valid) {
    ++counters_.rejected;
    return false;
  }
  Impl::Block& block = impl_->blocks[l.block_index];
  if (block.has(l.index)) {
    if (policy_ == DedupPolicy::kBrighter) {
      const std::size_t r = block.rank(l.index);
      if (p.intensity > block.slots[r].intensity) {
        block.slots[r] = l.slot;
        if (color_) block.rgb[r] = p.rgb;
        ++counters_.replaced;
        bounds_.add(to_world(origin_W_, resolution_, l.voxel, l.slot));
        return false;
      }
    }
    ++counters_.merged;
    return false;
  }
  const std::size_t r = block.rank(l.index);
  block.mask[l.index >> 6] |= std::uint64_t{1} << (l.index & 63);
  block.slots.insert(block.slots.begin() + static_cast<std::ptrdiff_t>(r), l.slot);
  if (color_) block.rgb.insert(block.rgb.begin() + static_cast<std::ptrdiff_t>(r), p.rgb);
  ++size_;
  bounds_.add(to_world(origin_W_, resolution_, l.voxel, l.slot));  // as the point reads back
  return true;
}

bool PointMap::insert(const MapPoint& p) {
  LocalPoint l;
  to_local(p, l);
  if (l.valid) l.block_index = impl_->find_or_add(l.block, l.hash, counters_);
  return place(l, p);
}

void PointMap::insert(std::span<const MapPoint> points) {
  // The same steps as insert(p) for each point, in the same order, pipelined so that memory
  // is fetched ahead: point i + 2k is converted and its hash slots prefetched, point i + k
  // gets its block (blocks are still created in point order) and the block prefetched, and
  // point i is placed.
  constexpr std::size_t k = 8, ring = 32;
  std::array<LocalPoint, ring> local;
  const std::size_t n = points.size();
  Impl& m = *impl_;
  auto convert = [&](std::size_t j) {
    LocalPoint& l = local[j % ring];
    to_local(points[j], l);
    if (!l.valid) return;
    __builtin_prefetch(&m.recent_slot(l.hash));
    if (const Impl::Entry* e = m.table_slot(l.hash)) __builtin_prefetch(e);
  };
  auto resolve = [&](std::size_t j) {
    LocalPoint& l = local[j % ring];
    if (!l.valid) return;
    l.block_index = m.find_or_add(l.block, l.hash, counters_);
    __builtin_prefetch(&m.blocks[l.block_index].mask[l.index >> 6]);
  };
  for (std::size_t j = 0; j < std::min(n, 2 * k); ++j) convert(j);
  for (std::size_t j = 0; j < std::min(n, k); ++j) resolve(j);
  for (std::size_t i = 0; i < n; ++i) {
    if (i + 2 * k < n) convert(i + 2 * k);
    if (i + k < n) resolve(i + k);
    place(local[i % ring], points[i]);
  }
}

std::size_t PointMap::memory_bytes() const {
  std::size_t bytes = sizeof(Impl) + impl_->blocks.capacity() * sizeof(Impl::Block) +
                      impl_->table.capacity() * sizeof(Impl::Entry);
  for (const Impl::Block& b : impl_->blocks) {
    bytes += b.slots.capacity() * sizeof(Slot) + b.rgb.capacity() * sizeof(b.rgb[0]);
  }
  return bytes;
}

namespace {

// Calls visit(voxel index, slot rank) for every occupied voxel of a block, in index order.
template <class Block, class Visit>
void for_each_voxel(const Block& block, Visit&& visit) {
  std::size_t rank = 0;
  for (int w = 0; w < 8; ++w) {
    for (std::uint64_t bits = block.mask[w]; bits != 0; bits &= bits - 1) {
      visit(w * 64 + std::countr_zero(bits), rank++);
    }
  }
}

Eigen::Vector3d voxel_in_block(int index) {
  return Eigen::Vector3d(index & 7, (index >> 3) & 7, index >> 6);
}

}  // namespace

void PointMap::for_each(const std::function<void(const MapPoint&)>& visit) const {
  MapPoint p;
  for (const Impl::Block& b : impl_->blocks) {
    const Eigen::Vector3d corner(8.0 * b.coord.x, 8.0 * b.coord.y, 8.0 * b.coord.z);
    for_each_voxel(b, [&](int index, std::size_t rank) {
      const Slot& s = b.slots[rank];
      p.position = to_world(origin_W_, resolution_, corner + voxel_in_block(index), s);
      p.intensity = s.intensity;
      if (color_) p.rgb = b.rgb[rank];
      visit(p);
    });
  }
}

std::vector<MapPoint> PointMap::points() const {
  std::vector<MapPoint> out;
  out.reserve(size_);
  for_each([&](const MapPoint& p) { out.push_back(p); });
  return out;
}

ProbeResult PointMap::probe(const Eigen::Vector3d& center, double half_extent,
                            std::size_t max_samples) const {
  ProbeResult result;
  if (impl_->blocks.empty() || !(half_extent >= 0.0) || !center.allFinite()) return result;
  const Eigen::Vector3d lo_W = center.array() - half_extent;
  const Eigen::Vector3d hi_W = center.array() + half_extent;
  // Candidate blocks: the box's block range, clipped to the occupied extents.
  const Impl& m = *impl_;
  auto block_of = [&](double w, double origin, std::int32_t lo, std::int32_t hi) {
    const double v = std::floor((w - origin) * inverse_resolution_ / 8.0);
    return static_cast<std::int32_t>(std::clamp(v, double(lo) - 1.0, double(hi) + 1.0));
  };
  const BlockCoord b0{block_of(lo_W.x(), origin_W_.x(), m.extent_min.x, m.extent_max.x),
                      block_of(lo_W.y(), origin_W_.y(), m.extent_min.y, m.extent_max.y),
                      block_of(lo_W.z(), origin_W_.z(), m.extent_min.z, m.extent_max.z)};
  const BlockCoord b1{block_of(hi_W.x(), origin_W_.x(), m.extent_min.x, m.extent_max.x),
                      block_of(hi_W.y(), origin_W_.y(), m.extent_min.y, m.extent_max.y),
                      block_of(hi_W.z(), origin_W_.z(), m.extent_min.z, m.extent_max.z)};
  const double range_blocks =
      (double(b1.x) - b0.x + 1) * (double(b1.y) - b0.y + 1) * (double(b1.z) - b0.z + 1);
  std::vector<std::uint32_t> candidates;
  auto in_range = [&](const BlockCoord& c) {
    return c.x >= b0.x && c.x <= b1.x && c.y >= b0.y && c.y <= b1.y && c.z >= b0.z && c.z <= b1.z;
  };
  if (range_blocks < static_cast<double>(m.blocks.size())) {
    for (std::int32_t z = b0.z; z <= b1.z; ++z) {
      for (std::int32_t y = b0.y; y <= b1.y; ++y) {
        for (std::int32_t x = b0.x; x <= b1.x; ++x) {
          const BlockCoord c{x, y, z};
          const std::uint32_t i = m.find(c, hash(c));
          if (i != kEmpty) candidates.push_back(i);
        }
      }
    }
    std::sort(candidates.begin(), candidates.end());  // storage order
  } else {
    for (std::uint32_t i = 0; i < m.blocks.size(); ++i) {
      if (in_range(m.blocks[i].coord)) candidates.push_back(i);
    }
  }
  for (const std::uint32_t i : candidates) {
    const Impl::Block& b = m.blocks[i];
    const Eigen::Vector3d corner(8.0 * b.coord.x, 8.0 * b.coord.y, 8.0 * b.coord.z);
    for_each_voxel(b, [&](int index, std::size_t rank) {
      const Slot& s = b.slots[rank];
      const Eigen::Vector3d p = to_world(origin_W_, resolution_, corner + voxel_in_block(index), s);
      if ((p.array() < lo_W.array()).any() || (p.array() > hi_W.array()).any()) return;
      ++result.count;
      if (result.samples.size() < max_samples) {
        result.samples.push_back(
            {p, s.intensity, color_ ? b.rgb[rank] : std::array<std::uint16_t, 3>{}});
      }
    });
  }
  return result;
}

}  // namespace ubot::mapping
