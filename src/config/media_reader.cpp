// The top-level `media:` list (SPEC §8): smoke clouds made of spherical cells, static, attached
// to an object, or animated by keyframes.
#include <fmt/format.h>

#include <set>

#include "object_reader.h"
#include "ubot/core/error.h"
#include "ubot/media/medium_model.h"

namespace ubot::config {
namespace {

// [x, y] or [x, y, z] (z defaults to `z`).
Eigen::Vector3d read_point(const Field& f, double z) {
  const auto v = f.as_numbers(2, 3);
  for (std::size_t k = 0; k < v.size(); ++k) f.item(k).as_finite();
  return {v[0], v[1], v.size() > 2 ? v[2] : z};
}

media::Tint read_tint(const Field& f) {
  f.as_numbers(3, 3);
  return {f.item(0).as_unit_interval(), f.item(1).as_unit_interval(), f.item(2).as_unit_interval()};
}

media::MediumCell read_cell(const Field& field) {
  if (!field.is_map()) field.fail("expected a mapping {position, radius, density, edge_factor}");
  Mapping m(field);
  media::MediumCell c;
  c.position = read_point(m.require("position"), 0.0);
  c.radius = m.non_negative("radius", 1.5);
  c.density = m.require("density").as_unit_interval();
  if (auto f = m.get("edge_factor")) c.edge_factor = f->as_unit_interval();
  m.finish();
  return c;
}

// Keys a keyframe leaves out keep the previous keyframe's values (the first: no change).
std::vector<MediumKeyframe> read_keyframes(const Field& list) {
  if (!list.is_sequence()) list.fail("expected a list of keyframes {t, position_offset, ...}");
  std::vector<MediumKeyframe> keyframes;
  MediumKeyframe k;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Field field = list.item(i);
    if (!field.is_map()) field.fail("expected a mapping {t, position_offset, ...}");
    Mapping m(field);
    const Field t = m.require("t");
    k.t = t.as_finite();
    if (!keyframes.empty() && !(k.t > keyframes.back().t)) {
      t.fail(fmt::format("keyframe times must increase, got {} after {}", k.t, keyframes.back().t));
    }
    if (auto f = m.get("position_offset")) k.position_offset = read_point(*f, 0.0);
    k.radius_scale = m.non_negative("radius_scale", k.radius_scale);
    k.density_scale = m.non_negative("density_scale", k.density_scale);
    m.finish();
    keyframes.push_back(k);
  }
  return keyframes;
}

int find_object(const Field& f, const std::vector<ObjectModel>& objects) {
  const std::string name = f.as_string();
  std::vector<std::string> names;
  for (const ObjectModel& o : objects) {
    if (o.name == name) return o.id;
    names.push_back(o.name);
  }
  const std::string hint = nearest_word(name, names);
  f.fail(fmt::format("no object is named {}{}", quote_value(name),
                     hint.empty() ? "" : fmt::format("; did you mean '{}'?", hint)));
}

MediumModel read_medium(const Field& field, std::size_t index,
                        const std::vector<ObjectModel>& objects) {
  if (!field.is_map()) field.fail("expected a mapping describing a medium");
  Mapping m(field);
  MediumModel medium;
  medium.name = m.string("name", fmt::format("medium_{}", index));
  medium.medium_type = m.string("medium_type", "smoke");
  medium.active = m.boolean("active", true);
  if (auto f = m.get("tint")) medium.tint = read_tint(*f);
  if (auto f = m.get("attach")) medium.attach = find_object(*f, objects);
  const Field cells = m.require("cells");
  if (!cells.is_sequence()) cells.fail("expected a list of cells");
  for (std::size_t i = 0; i < cells.size(); ++i) medium.cells.push_back(read_cell(cells.item(i)));
  if (auto f = m.get("keyframes")) medium.keyframes = read_keyframes(*f);
  if (auto f = m.get("loop")) {
    medium.loop = f->as_bool();
    if (medium.loop && medium.keyframes.size() < 2) f->fail("loop needs at least two keyframes");
  }
  m.finish();
  return medium;
}

}  // namespace

std::vector<MediumModel> read_media(const Field& list, const std::vector<ObjectModel>& objects) {
  if (!list.is_sequence()) list.fail("expected a list of media");
  std::vector<MediumModel> media;
  std::set<std::string> names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    media.push_back(read_medium(list.item(i), i, objects));
    if (!names.insert(media.back().name).second) {
      list.item(i).fail(
          fmt::format("medium name {} is used twice", quote_value(media.back().name)));
    }
  }
  return media;
}

}  // namespace ubot::config
