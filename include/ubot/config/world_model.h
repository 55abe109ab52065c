#pragma once
// WorldModel: the immutable description of a world, as read from an IR-SIM-compatible YAML file
// (like MuJoCo's mjModel). Groups with `number`/`distribution` are already expanded into single
// objects with their ids, names and initial states. Everything that changes while the world runs
// lives in WorldState (world/), never here.
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ubot/core/error.h"

#include <Eigen/Core>

#include "ubot/config/grid_map.h"
#include "ubot/config/layer_config.h"
#include "ubot/config/sensor_media.h"
#include "ubot/core/triangle_mesh.h"
#include "ubot/physics/physics_model.h"
#include "ubot/sensors/registered_models.h"
#include "ubot/sensors/sensor_types.h"

namespace ubot {

// The sections of layers above the sensors, each declared beside its layer (LayerConfig).
struct PlotModel;     // ubot/viz/plot_config.h
struct Ros2Model;     // ubot/ros2/ros2_config.h
struct MappingModel;  // ubot/mapping/mapping_config.h
struct MediumModel;   // ubot/media/medium_model.h

enum class Role { kRobot, kObstacle };
const char* role_name(Role role);

// ---- Shapes -------------------------------------------------------------------------------------

enum class ShapeKind { kCircle, kRectangle, kPolygon, kLinestring };
const char* shape_name(ShapeKind kind);

// 3D shapes (SPEC §1's extension). Each rests on the object's base height `z`: a box and a
// cylinder span [z, z + height], a sphere [z, z + 2 radius] (centre at z + radius); a mesh's
// vertices are in the body frame, lifted by z.
enum class SolidKind { kBox, kSphere, kCylinder, kMesh };
const char* solid_name(SolidKind kind);

struct SolidModel {
  SolidKind kind = SolidKind::kBox;
  Eigen::Vector3d size = Eigen::Vector3d::Ones();  // box: length (x), width (y), height (z)
  double radius = 0.5;                             // sphere, cylinder
  double height = 1.0;                             // cylinder (a box's is size.z())
  // mesh: the file as written and as resolved (relative to the world file's directory), the
  // scale and rotation applied to its vertices, and the vertices so transformed (body frame).
  std::string file;
  std::string path;
  Eigen::Vector3d scale = Eigen::Vector3d::Ones();
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();
  std::shared_ptr<const TriangleMesh> mesh;
  // Vertical extent above the object's base height.
  double bottom() const;
  double top() const;
};

// A 2D shape in the body frame (x forward, y left, origin at the object's state point).
// 3D shapes keep their planar footprint here (what collisions, FOV and pictures use): a box its
// rectangle, a sphere or cylinder its circle, a mesh the convex hull of its vertices in the xy
// plane (a linestring when that hull is flat); `solid` says what lidars see.
struct ShapeModel {
  ShapeKind kind = ShapeKind::kCircle;
  double radius = 0.2;                               // circle
  Eigen::Vector2d center = Eigen::Vector2d::Zero();  // circle centre offset in the body frame
  double length = 1.0;                               // rectangle extent along body x
  double width = 1.0;                                // rectangle extent along body y
  std::optional<double> wheelbase;                   // shifts the shape; an acker turns with it
  // Polygon / linestring vertices; for rectangles, the four corners (IR-SIM order:
  // (-L/2,-W/2), (L/2,-W/2), (L/2,W/2), (-L/2,W/2), or rear-axle based with a wheelbase).
  std::vector<Eigen::Vector2d> vertices;
  std::optional<SolidModel> solid;  // set for the 3D shapes
  // `compound`: its parts (circles, rectangles, polygons), already placed in the body frame;
  // kind and vertices then hold the convex hull of the parts (what a single outline stands for:
  // bounding circle, RVO radius), while collisions, fields of view and lidars see the parts.
  std::vector<ShapeModel> parts;

  bool closed() const { return kind != ShapeKind::kLinestring; }
  // Radius of the smallest circle around the shape (IR-SIM's minimum_bounding_radius), taken
  // about the shape's own centre for circles and about the vertex bounding centre otherwise.
  double bounding_radius() const { return bounding_circle().radius; }
  // That smallest circle, in the body frame.
  struct Circle {
    Eigen::Vector2d center = Eigen::Vector2d::Zero();
    double radius = 0.0;
  };
  Circle bounding_circle() const;
};

// ---- Motion -------------------------------------------------------------------------------------

enum class KinematicsKind { kNone, kDiff, kOmni, kAcker, kOmniAngular };
// Every kind, in the order `kinematics.name` lists them: diff, omni, omni_angular, acker, static.
inline constexpr KinematicsKind kKinematicsKinds[] = {
    KinematicsKind::kDiff, KinematicsKind::kOmni, KinematicsKind::kOmniAngular,
    KinematicsKind::kAcker, KinematicsKind::kNone};
// The YAML name of a kind ("static" for kNone), and back (nullopt for an unknown name).
const char* kinematics_name(KinematicsKind kind);
std::optional<KinematicsKind> kinematics_from_name(std::string_view name);

struct KinematicsModel {
  KinematicsKind kind = KinematicsKind::kNone;  // kNone: the object never moves
  bool noise = false;
  std::vector<double>
      alpha;  // IR-SIM motion noise coefficients (diff/acker 4, omni 2, omni_angular 3)
  double wheelbase = 1.0;        // acker: shape.wheelbase, else kinematics.wheelbase, else 1
  bool acker_steer_mode = true;  // acker: velocity [v, steer] (true) or [v, steer rate] (false)

  int state_dim() const { return kind == KinematicsKind::kAcker ? 4 : 3; }
  // Components of the velocity: omni_angular [forward, lateral, yaw rate], the others two.
  int velocity_dim() const { return kind == KinematicsKind::kOmniAngular ? 3 : 2; }
};

// A parameter of a behaviour that ubot does not build in (a Python one): the YAML value as a
// number, a boolean, a string or a list of numbers.
using GroupParam = std::variant<double, bool, std::string, std::vector<double>>;

// kCustom: a behaviour registered at run time (include/ubot/world/behavior.h), by name.
// The per-object behaviours the loader builds in (`behavior: {name: ...}`), and whether one is
// there for a kinematics: the loader's check, the world's registry and ubot.behavior_names()
// from Python all read these (src/config/behavior_reader.cpp).
std::span<const std::string_view> builtin_behavior_names();
bool builtin_behavior_available(std::string_view name, KinematicsKind kinematics);
enum class RvoMode { kRvo, kVo, kHrvo };
enum class TargetRoles { kAll, kRobot, kObstacle };

struct BehaviorModel {
  // Its name (empty: no behaviour), where the name is (for messages) and, for one not built in,
  // every other key of the block. The world runs what its registry holds under the name.
  std::string name;
  ErrorLocation where;
  std::map<std::string, GroupParam> params;
  // dash
  double angle_tolerance = 0.1;
  // rvo
  double vxmax = 1.5, vymax = 1.5, acce = 1.0, factor = 1.0, neighbor_threshold = 3.0;
  RvoMode mode = RvoMode::kRvo;
  // ubot's extension (IR-SIM #199): static polygons are avoided by their edges, as IR-SIM 2.12.0
  // avoids line strings, instead of by the bounding circle IR-SIM gives them.
  bool polygon_edges = false;
  TargetRoles target_roles = TargetRoles::kAll;
  // sfm (IR-SIM's SFMVelocity defaults; docs/behaviors.md)
  struct Sfm {
    double vmax = 1.5, neighbor_threshold = 10.0, relaxation_time = 0.5;
    double force_factor_desired = 1.0, force_factor_social = 2.1, force_factor_obstacle = 10.0;
    double sigma_obstacle = 0.8, lambda_importance = 2.0, gamma = 0.35;
    double n_angular = 2.0, n_velocity = 3.0, safety_radius = 0.0;
  } sfm;
  // goals
  bool wander = false;
  bool loop = false;
  Eigen::Vector3d range_low{0.0, 0.0, -3.141592653589793};
  Eigen::Vector3d range_high{10.0, 10.0, 3.141592653589793};
};

enum class ArriveMode { kPosition, kState };

// ORCA's parameters, named as RVO2 / pyrvo name them (IR-SIM's OrcaGroupBehavior defaults).
struct OrcaModel {
  double neighbor_dist = 15.0;      // neighborDist
  int max_neighbors = 10;           // maxNeighbors
  double time_horizon = 20.0;       // timeHorizon
  double time_horizon_obst = 10.0;  // timeHorizonObst
  double safe_radius = 0.1;         // added to each member's radius
  std::optional<double> max_speed;  // maxSpeed; unset: each member's own maximum speed
};

// `group_behavior:` of an object group: one behaviour computing every member's command at once
// (include/ubot/world/group_behavior.h has the registry that runs it).
// IR-SIM 2.12.0's `sfm` group behaviour (SfmGroupBehavior): the per-object `sfm`'s parameters
// for every member at once, and the social groups of Moussaïd et al. (2010), people walking
// together, with their coherence, repulsion and gaze forces.
struct SfmGroupModel {
  BehaviorModel::Sfm sfm;
  std::vector<std::vector<int>> social_groups;  // member indices; groups of one are dropped
  double force_factor_coherence = 2.0;
  double force_factor_group_repulsion = 1.0;
  std::optional<double> group_repulsion_threshold;  // m between centres; unset: the two radii
  double force_factor_gaze = 3.0;
  double gaze_vision_angle = 90.0;               // degrees either side of the walking direction
  TargetRoles target_roles = TargetRoles::kAll;  // which outside objects the members react to
};

struct GroupBehaviorModel {
  std::string name;     // "" = none; "orca" and "sfm" are built in, others must be registered
  ErrorLocation where;  // the name's file, line, column and key path, for messages
  OrcaModel orca;       // read when name == "orca"
  SfmGroupModel sfm;    // read when name == "sfm"
  std::map<std::string, GroupParam> params;  // every other key, for registered behaviours
};

// ---- Sensors ------------------------------------------------------------------------------------

// Properties every sensor has (SPEC §0).
struct SensorCommon {
  std::string name;  // unique within its object, e.g. "lidar2d_0"
  bool enabled = true;
  bool auto_start = true;
  std::optional<double> update_rate_hz;  // unset: IR-SIM sensors sample every step
  bool noise = false;
  std::optional<std::uint64_t> seed;  // mixed in, never replacing (core/random.h)
  media::SmokeSettings smoke;         // perception media (SPEC §8); read by lidars and cameras
};

// The parameters of each registered sensor type (include/ubot/sensors/sensor_types.h), one
// alternative per type, in the list's order; each type's struct is in its own folder
// (include/ubot/sensors/<type>/<type>_model.h).
namespace detail {
template <class Void, class... T>
using SensorParamsOf = std::variant<T...>;
}  // namespace detail
#define UBOT_SENSOR_MODEL(T) , T##Model
using SensorParams = detail::SensorParamsOf<void UBOT_SENSOR_TYPES(UBOT_SENSOR_MODEL)>;
#undef UBOT_SENSOR_MODEL

struct SensorModel {
  SensorCommon common;
  SensorParams params;
  // The `type:` it was read from: its parameters' type_name() ("lidar2d", "rgb_camera", ...).
  const char* type_name() const;
};

// ---- Scripted 3D motion -------------------------------------------------------------------------

// A pose at a time on a scripted trajectory.
struct WaypointModel {
  double t = 0.0;                                      // s of simulation time
  Eigen::Vector3d position = Eigen::Vector3d::Zero();  // world frame
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();       // roll, pitch, yaw (REP 103)
};

enum class Interpolation { kCubic, kLinear };

// Free flight under gravity from time 0: position p0 + v0 t - g t²/2 ẑ, orientation turning at a
// constant body-frame angular velocity.
struct BallisticModel {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
  Eigen::Vector3d rpy = Eigen::Vector3d::Zero();
  Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();  // body frame, rad/s
};

// `trajectory:` of an object: timed waypoints (times strictly increasing, the first >= 0) or a
// ballistic flight. The object is moved by the world along it; its kinematics are unused.
struct TrajectoryModel {
  std::vector<WaypointModel> waypoints;
  Interpolation interpolation = Interpolation::kCubic;
  bool loop = false;  // repeat; the last waypoint must equal the first
  std::optional<BallisticModel> ballistic;
};

// ---- Objects and world --------------------------------------------------------------------------

struct ObjectModel {
  int id = 0;
  std::string name;  // IR-SIM default: "<role>_<id>"
  Role role = Role::kObstacle;
  int group = 0;

  ShapeModel shape;
  KinematicsModel kinematics;
  BehaviorModel behavior;
  GroupBehaviorModel group_behavior;  // its group's (each member carries a copy, as in IR-SIM)

  std::vector<double> state;               // [x, y, yaw] (acker: + steer)
  std::vector<std::vector<double>> goals;  // waypoints [x, y, yaw]; empty = no goal
  std::vector<double> velocity;            // initial velocity (kinematics frame)
  std::vector<double> vel_min, vel_max, acce;
  double goal_threshold = 0.1;
  ArriveMode arrive_mode = ArriveMode::kPosition;
  bool is_static = false;
  bool unobstructed = false;
  std::optional<double> fov;         // radians
  std::optional<double> fov_radius;  // metres
  double z = 0.0;                    // base height (3D extension)
  double roll = 0.0, pitch = 0.0;    // body tilt of a planar object (3D extension), radians
  std::optional<TrajectoryModel> trajectory;  // scripted 6-DoF motion instead of kinematics
  std::optional<double> height;               // extrusion height; unset reaches every scan plane
  // Legacy smoke volumes (SPEC §8): an object carrying a sensor's smoke_volume_tag is one medium
  // cell for that sensor (its shape's bounding circle) with this density.
  std::vector<std::string> tags;
  double density = 1.0;

  std::string color;  // matplotlib colour name or hex; "" = renderer default
  LayerConfig<PlotModel> plot;
  std::vector<SensorModel> sensors;
  LayerConfig<Ros2Model> ros2;
  PhysicsModel physics;  // mass, friction, ... (collision_mode: contact)
};

enum class CollisionMode { kStop, kUnobstructed, kUnobstructedObstacles, kReactive, kContact };
const char* collision_mode_name(CollisionMode mode);

// IR-SIM's world.step_mode: `internal`, the world moves its objects each step; `external`, an
// outside driver places them (set_state / set_velocity) and a step only samples the sensors and
// sets the collision and arrival flags at those poses (a sensor server).
enum class StepMode { kInternal, kExternal };

struct WorldSettings {
  std::string name;
  double width = 10.0;
  double height = 10.0;
  double step_time = 0.1;
  double sample_time = 0.1;
  Eigen::Vector2d offset = Eigen::Vector2d::Zero();
  CollisionMode collision_mode = CollisionMode::kStop;
  std::string control_mode = "auto";
  StepMode step_mode = StepMode::kInternal;
  bool host_behaviors = false;          // LoadOptions::host_behaviors
  std::optional<int> contact_substeps;  // solver sub-steps per step (contact); unset: default
  // IR-SIM 2.12.0's world defaults of the objects' `friction` and `restitution` (contact), for
  // objects that set none; unset: PhysicsModel's.
  std::optional<double> friction, restitution;
  // IR-SIM's fog of map (world/fog_map.h): a grid of cells the objects' lidars and fields of
  // view reveal, drawn over the pictures; it hides nothing from the sensors.
  bool fog_map = false;
  std::optional<double> fog_map_resolution;  // cell size (m); unset: 0.1 m
};

// How RGB cameras shade what they see (`light:` and `ground: {color}`): Lambertian surfaces lit by
// one directional light, `colour x (ambient + diffuse * max(0, n . direction))`, and the sky where
// a pixel sees nothing. The defaults are a light from the upper left of the map.
struct Lighting {
  Eigen::Vector3d direction = Eigen::Vector3d(-0.5, 0.3, 0.8).normalized();  // unit, to the light
  double ambient = 0.45;
  double diffuse = 0.55;
  std::array<double, 3> sky = {0.70, 0.82, 0.95};     // RGB in [0, 1]
  std::array<double, 3> ground = {0.50, 0.47, 0.42};  // surfaces of no object (ground, map cells)
};

struct WorldModel {
  std::string file;        // the YAML file it came from
  std::uint64_t seed = 0;  // the world seed every random stream derives from
  WorldSettings world;
  std::vector<ObjectModel> objects;  // robots first, then obstacles, in file order; index == id
  LayerConfig<std::vector<MappingModel>> maps;  // `mapping:` (one map or a list)
  LayerConfig<std::vector<MediumModel>> media;  // the top-level `media:` list, in file order
  std::optional<double> ground;         // `ground:` plane height (the half-space below is solid)
  Lighting lighting;                    // `light:` and the ground's `color` (RGB cameras)
  std::shared_ptr<const GridMap> grid;  // `world.obstacle_map` (null: none)
  std::vector<std::string> warnings;    // things the loader accepted but the user should know
};

}  // namespace ubot
