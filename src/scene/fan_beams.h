#pragma once
// The beams of one 2D fan (fan.cpp): finding the beams whose yaw lies in an arc, and each beam's
// exact ray and nearest hit so far, made on first use.
//
// Lidar yaws are usually sorted (a scan's beam order), so an arc's beams are found by binary
// search; unsorted yaws (angle noise larger than the beam spacing, or any caller's order) are
// bucketed by yaw mod 2 pi into about one angular bin per beam by a counting sort.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "fan_arcs.h"
#include "fan_rays.h"
#include "scene_tables.h"

namespace ubot::scene::internal {

// Per-thread buffers, reused so that a fan allocates nothing once they have grown.
struct FanScratch {
  // Binned beams: bin k holds order[bin_start[k], bin_start[k + 1]).
  std::vector<std::uint32_t> bin_start, cursor, order, beam_bin;
  // Per-beam state, valid where stamp[i] == generation (so nothing is cleared per fan).
  std::vector<std::uint32_t> stamp;
  std::uint32_t generation = 0;
  std::vector<double> dx, dy;
  std::vector<Best> best;
  std::vector<std::uint32_t> touched;  // beams with state, in order of first use
};

// Finds the beams whose yaw (mod 2 pi) lies in an arc.
class BeamIndex {
 public:
  BeamIndex(std::span<const double> yaws, bool sorted, FanScratch& s)
      : yaws_(yaws), sorted_(sorted), s_(s) {
    if (!sorted_) {
      bin(yaws);
    } else if (yaws.size() > 1 && yaws.back() > yaws.front()) {
      per_radian_ = static_cast<double>(yaws.size() - 1) / (yaws.back() - yaws.front());
    }
  }

  // Calls f(beam) for every beam the arc may hold (all of them if it is whole); never twice.
  template <class F>
  void for_each(const Arc& arc, F&& f) const {
    const auto n = static_cast<std::uint32_t>(yaws_.size());
    if (n == 0) return;
    if (arc.all || !(arc.hi - arc.lo < kTwoPi)) {
      for (std::uint32_t i = 0; i < n; ++i) f(i);
    } else if (sorted_) {
      for_each_sorted(arc, f);
    } else {
      for_each_binned(arc, f);
    }
  }

 private:
  // Copies of the arc shifted by 2 pi k that meet [yaws.front(), yaws.back()]; each is found by
  // binary search. The shifted bounds round by ~u |yaw|, inside the arcs' yaw pad; with
  // hi - lo < 2 pi the copies are disjoint.
  template <class F>
  void for_each_sorted(const Arc& arc, F&& f) const {
    const double first = yaws_.front(), last = yaws_.back();
    const auto k0 = static_cast<std::int64_t>(std::floor((first - arc.hi) / kTwoPi));
    const auto k1 = static_cast<std::int64_t>(std::ceil((last - arc.lo) / kTwoPi));
    for (std::int64_t k = k0; k <= k1; ++k) {
      const double shift = kTwoPi * static_cast<double>(k);
      const double lo = arc.lo + shift, hi = arc.hi + shift;
      if (hi < first || lo > last) continue;
      for (std::size_t i = first_at_least(lo); i < yaws_.size() && yaws_[i] <= hi; ++i) {
        f(static_cast<std::uint32_t>(i));
      }
    }
  }

  // std::lower_bound on the sorted yaws, started from where evenly spread yaws would put x:
  // a lidar's yaws are, so a step or two finds it.
  std::size_t first_at_least(double x) const {
    const std::size_t n = yaws_.size();
    const double guess = (x - yaws_.front()) * per_radian_;
    std::size_t i = guess > 0.0 ? static_cast<std::size_t>(std::min(guess, double(n))) : 0;
    for (int step = 0; step < 4; ++step) {
      if (i > 0 && yaws_[i - 1] >= x) {
        --i;
      } else if (i < n && yaws_[i] < x) {
        ++i;
      } else {
        return i;
      }
    }
    return static_cast<std::size_t>(std::lower_bound(yaws_.begin(), yaws_.end(), x) -
                                    yaws_.begin());
  }

  template <class F>
  void for_each_binned(const Arc& arc, F&& f) const {
    const auto k0 = static_cast<std::int64_t>(std::floor(arc.lo * scale_));
    const auto k1 = static_cast<std::int64_t>(std::floor(arc.hi * scale_));
    if (k1 - k0 + 1 >= static_cast<std::int64_t>(bins_)) {
      for (std::uint32_t i = 0; i < yaws_.size(); ++i) f(i);
      return;
    }
    const auto mask = static_cast<std::int64_t>(bins_ - 1);
    for (std::int64_t k = k0; k <= k1; ++k) {
      const auto b = static_cast<std::size_t>(k & mask);  // k mod bins, k < 0 too
      for (std::uint32_t j = s_.bin_start[b]; j < s_.bin_start[b + 1]; ++j) f(s_.order[j]);
    }
  }

  // Counting sort of the beams into a power-of-two number of bins over [0, 2 pi).
  void bin(std::span<const double> yaws) {
    const std::size_t n = yaws.size();
    bins_ = std::bit_ceil(std::max<std::size_t>(n, 16));
    scale_ = static_cast<double>(bins_) / kTwoPi;
    s_.bin_start.assign(bins_ + 1, 0);
    s_.beam_bin.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const double a = yaws[i] - kTwoPi * std::floor(yaws[i] / kTwoPi);
      // a may round to just outside [0, 2 pi): clamping puts it in the bin next to its own
      // (mod bins), which the arcs' yaw pad reaches.
      const auto k =
          static_cast<std::uint32_t>(std::clamp(a * scale_, 0.0, static_cast<double>(bins_ - 1)));
      s_.beam_bin[i] = k;
      ++s_.bin_start[k + 1];
    }
    for (std::size_t k = 0; k < bins_; ++k) s_.bin_start[k + 1] += s_.bin_start[k];
    s_.cursor.assign(s_.bin_start.begin(), s_.bin_start.end() - 1);
    s_.order.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) s_.order[s_.cursor[s_.beam_bin[i]]++] = i;
  }

  std::span<const double> yaws_;
  bool sorted_;
  FanScratch& s_;
  double per_radian_ = 0.0;  // sorted: beams per radian, on average
  std::size_t bins_ = 0;
  double scale_ = 0.0;  // binned: bins per radian
};

// The beams' exact rays and nearest hits, made when a shape first tests the beam.
class FanBeams {
 public:
  FanBeams(double ox, double oy, double oz, const FanRays& rays, double t_max, FanScratch& s)
      : ox_(ox), oy_(oy), oz_(oz), rays_(rays), t_max_(t_max), s_(s) {
    const std::size_t n = rays.index_yaws.size();
    if (s.stamp.size() < n) {
      s.stamp.resize(n, 0);  // new entries: older than any generation
      s.dx.resize(n);
      s.dy.resize(n);
      s.best.resize(n);
    }
    if (++s.generation == 0) {  // wrapped: forget every stamp
      std::fill(s.stamp.begin(), s.stamp.end(), 0);
      s.generation = 1;
    }
    s.touched.clear();
  }

  ExactRay ray(std::uint32_t i) const {
    touch(i);
    return {ox_, oy_, oz_, s_.dx[i], s_.dy[i], 0.0, t_max_};
  }
  Best& best(std::uint32_t i) const {
    touch(i);
    return s_.best[i];
  }
  // Whether beam i already has a hit nearer than `near` (so nothing at >= near can win it).
  bool blocked(std::uint32_t i, double near) const {
    return s_.stamp[i] == s_.generation && s_.best[i].t < near;
  }
  std::span<const std::uint32_t> touched() const { return s_.touched; }

 private:
  void touch(std::uint32_t i) const {
    if (s_.stamp[i] == s_.generation) return;
    s_.stamp[i] = s_.generation;
    rays_.direction(i, &s_.dx[i], &s_.dy[i]);
    s_.best[i] = Best{};
    s_.touched.push_back(i);
  }

  double ox_, oy_, oz_;
  const FanRays& rays_;
  double t_max_;
  FanScratch& s_;
};

}  // namespace ubot::scene::internal
