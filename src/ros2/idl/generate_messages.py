#!/usr/bin/env python3
"""Generates ubot's ROS 2 message code from the .idl files beside it (issue 49: one definition per
message). The same files feed CycloneDDS's idlc (the DDS topic descriptors and C types), so a
message is defined once, here, in ROS 2's own IDL mapping (<pkg>::msg::dds_::<Name>_).

Written by hand because no maintained tool emits what ubot needs from IDL: rosidl needs a ROS
install and emits its own message classes, idlc emits C or its own C++ binding.

Outputs (OUT_DIR, written only when their content changes, so a re-run rebuilds nothing):
  ubot/ros2/message_structs.h   the C++ structs (ROS field names and types, ROS constant names)
  message_cdr.inc               put()/get() of every struct in XCDR1 (src/ros2/cdr.cpp)
  cyclone_messages.h            to_c()/from_c() declarations for idlc's C types
  cyclone_messages.inc          their definitions (src/ros2/cyclone_convert.cpp)
  type_info.inc                 every type's rosidl type description JSON, REP 2011 type hash
                                (hashlib's SHA-256 of that JSON) and .msg definition text as
                                MCAP's ros2msg schemas hold it (src/ros2/type_info.cpp)

The IDL understood is what ROS 2's mapping uses: modules, structs, `const` in a
`<Name>_Constants` module, fields of primitive, string, nested, `T name[N]` and `sequence<T>`
types, and `@default (value=X)`. Anything else is an error naming the file and line.

Usage: generate_messages.py IDL_DIR OUT_DIR
"""
import hashlib
import json
import os
import re
import string
import sys

# IDL type -> (C++ type, rosidl FieldType id name, size in bytes).
PRIMITIVES = {
    "boolean": ("bool", "kBool", 1),
    "octet": ("std::uint8_t", "kUint8", 1),
    "int8": ("std::int8_t", "kInt8", 1),
    "uint8": ("std::uint8_t", "kUint8", 1),
    "short": ("std::int16_t", "kInt16", 2),
    "unsigned short": ("std::uint16_t", "kUint16", 2),
    "long": ("std::int32_t", "kInt32", 4),
    "unsigned long": ("std::uint32_t", "kUint32", 4),
    "long long": ("std::int64_t", "kInt64", 8),
    "unsigned long long": ("std::uint64_t", "kUint64", 8),
    "float": ("float", "kFloat", 4),
    "double": ("double", "kDouble", 8),
}


class IdlError(Exception):
    pass


class Field:
    def __init__(self, name, idl_type, array=None, sequence=False, default=None, comment=""):
        self.name, self.idl_type, self.array, self.sequence = name, idl_type, array, sequence
        self.default, self.comment = default, comment

    @property
    def primitive(self):
        return self.idl_type in PRIMITIVES

    @property
    def string(self):
        return self.idl_type == "string"

    @property
    def nested(self):
        return not self.primitive and not self.string


class Struct:
    def __init__(self, modules, idl_name, comment):
        self.modules, self.idl_name, self.comment = modules, idl_name, comment
        self.fields, self.constants = [], []

    @property
    def name(self):  # Marker_ -> Marker
        return self.idl_name[:-1] if self.idl_name.endswith("_") else self.idl_name

    @property
    def package(self):
        return self.modules[0]

    @property
    def scoped(self):  # visualization_msgs::msg::dds_::Marker_
        return "::".join(self.modules + [self.idl_name])

    @property
    def c_type(self):  # idlc's C name: visualization_msgs_msg_dds__Marker_
        return "_".join(self.modules + [self.idl_name])

    @property
    def ros_name(self):  # visualization_msgs/msg/Marker
        return f"{self.package}/msg/{self.name}"


TOKEN = re.compile(r'\s*(?:(//[^\n]*)|(@\w+\s*\([^)]*\))|("[^"]*")|([A-Za-z_][\w:]*)|(-?[\d.]+(?:[eE][-+]?\d+)?)|(\S))')


def tokens(path):
    """(kind, text, line) of the file's IDL, preprocessor lines dropped."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    line = 1
    for raw in text.splitlines(keepends=True):
        if raw.lstrip().startswith("#"):
            m = re.match(r'\s*#include\s+"([^"]+)"', raw)
            if m:
                yield ("include", m.group(1), line)
            line += 1
            continue
        for m in TOKEN.finditer(raw):
            comment, annotation, string, word, number, punct = m.groups()
            if comment is not None:
                yield ("comment", comment[2:].strip(), line)
            elif annotation is not None:
                yield ("annotation", annotation, line)
            elif string is not None:
                yield ("string", string, line)
            elif word is not None:
                yield ("word", word, line)
            elif number is not None:
                yield ("number", number, line)
            elif punct is not None:
                yield ("punct", punct, line)
        line += 1


class Parser:
    def __init__(self, idl_dir):
        self.idl_dir = idl_dir
        self.structs = []  # in dependency order (includes first)
        self.by_scoped = {}
        self.done = set()
        self.constants = {}  # "pkg::msg::Marker" -> [(type, NAME, value)]

    def parse_file(self, name):
        if name in self.done:
            return
        self.done.add(name)
        path = os.path.join(self.idl_dir, name)
        toks = list(tokens(path))
        for kind, text, _ in toks:
            if kind == "include":
                self.parse_file(text)
        toks = [t for t in toks if t[0] != "include"]
        self.path = path
        self.toks, self.at = toks, 0
        self.parse_scope([])

    def error(self, what):
        line = self.toks[min(self.at, len(self.toks) - 1)][2] if self.toks else 0
        raise IdlError(f"{self.path}:{line}: {what}")

    def peek(self, skip_comments=True):
        while skip_comments and self.at < len(self.toks) and self.toks[self.at][0] == "comment":
            self.at += 1
        return self.toks[self.at] if self.at < len(self.toks) else ("eof", "", 0)

    def take(self, text=None):
        tok = self.peek()
        if tok[0] == "eof" or (text is not None and tok[1] != text):
            self.error(f"expected {text or 'more'}, found {tok[1]!r}")
        self.at += 1
        return tok[1]

    def comments_before(self):
        lines = []
        while self.at < len(self.toks) and self.toks[self.at][0] == "comment":
            lines.append(self.toks[self.at][1])
            self.at += 1
        return " ".join(lines)

    def parse_scope(self, modules):
        while True:
            comment = self.comments_before()
            kind, text, _ = self.peek()
            if kind == "eof" or text == "}":
                return
            if text == "module":
                self.take()
                name = self.take()
                self.take("{")
                if name.endswith("_Constants"):
                    self.parse_constants(modules, name[: -len("_Constants")])
                else:
                    self.parse_scope(modules + [name])
                self.take("}")
                self.take(";")
            elif text == "struct":
                self.take()
                self.parse_struct(modules, self.take(), comment)
            else:
                self.error(f"unexpected {text!r} (modules, structs and constants only)")

    def parse_constants(self, modules, owner):
        out = self.constants.setdefault("::".join(modules + [owner]), [])
        while self.peek()[1] != "}":
            self.take("const")
            idl_type = self.type_name()
            name = self.take()
            self.take("=")
            value = self.take()
            self.take(";")
            if idl_type not in PRIMITIVES:
                self.error(f"constant {name}: type {idl_type!r} is not a primitive")
            out.append((idl_type, name[1:] if name.startswith("_") else name, value))  # escaped

    def type_name(self):
        first = self.take()
        if first == "unsigned" or (first == "long" and self.peek()[1] == "long"):
            second = self.take()
            if second == "long" and self.peek()[1] == "long":
                self.take()
                return f"{first} long long" if first == "unsigned" else "long long"
            return f"{first} {second}"
        return first

    def parse_struct(self, modules, idl_name, comment):
        s = Struct(modules, idl_name, comment)
        self.take("{")
        while self.peek()[1] != "}":
            field_comment = self.comments_before()
            default = None
            if self.peek()[0] == "annotation":
                m = re.match(r"@default\s*\(\s*value\s*=\s*([^)]+)\)", self.take())
                if not m:
                    self.error("only @default (value=...) is understood")
                default = m.group(1).strip()
            sequence = False
            if self.peek()[1] == "sequence":
                self.take()
                self.take("<")
                idl_type = self.type_name()
                self.take(">")
                sequence = True
            else:
                idl_type = self.type_name()
            name = self.take()
            array = None
            if self.peek()[1] == "[":
                self.take()
                array = int(self.take())
                self.take("]")
            self.take(";")
            trailing = ""
            if self.at < len(self.toks) and self.toks[self.at][0] == "comment" and \
                    self.toks[self.at][2] == self.toks[self.at - 1][2]:
                trailing = self.toks[self.at][1]
                self.at += 1
            field = Field(name, idl_type, array, sequence, default, trailing or field_comment)
            if field.nested and field.idl_type not in self.by_scoped:
                self.error(f"{s.scoped}.{name}: type {idl_type!r} is not defined before it")
            if field.sequence and field.idl_type == "boolean":
                self.error(f"{s.scoped}.{name}: sequence<boolean> has no std::vector data()")
            s.fields.append(field)
        self.take("}")
        self.take(";")
        self.structs.append(s)
        self.by_scoped[s.scoped] = s


def cpp_type(p, f):
    if f.primitive:
        t = PRIMITIVES[f.idl_type][0]
    elif f.string:
        t = "std::string"
    else:
        t = p.by_scoped[f.idl_type].name
    if f.sequence and f.idl_type in ("octet", "uint8"):
        return "Bytes"  # its own bytes, or a sensor's buffer viewed while published (bytes.h)
    if f.sequence:
        return f"std::vector<{t}>"
    if f.array is not None:
        return f"std::array<{t}, {f.array}>"
    return t


def initializer(f):
    if f.array is not None:
        return "{}"
    if f.sequence or f.nested or f.string:
        return ""
    if f.default is not None:
        return f" = {f.default}"
    return " = false" if f.idl_type == "boolean" else " = 0"


def plain(p, s):
    """The element size if the struct's CDR layout is its C++ layout (only scalars of one size:
    no padding in either), else 0: a sequence of them is one copy."""
    scalars = [f for f in s.fields if f.primitive and f.array is None and not f.sequence
               and f.idl_type != "boolean"]
    sizes = {PRIMITIVES[f.idl_type][2] for f in scalars}
    return sizes.pop() if len(scalars) == len(s.fields) and len(sizes) == 1 else 0


def kind(p, f):
    """(container, element) of a field, the key of every emitter's templates below: container
    "seq", "array" or "one"; element "prim", "str", "plain" (a sequence's struct of scalars of
    one size: copied whole) or "struct"."""
    container = "seq" if f.sequence else "array" if f.array is not None else "one"
    if f.primitive:
        return container, "prim"
    if f.string:
        return container, "str"
    if container == "seq" and plain(p, p.by_scoped[f.idl_type]):
        return container, "plain"
    return container, "struct"


def emit(templates, p, f, **names):
    """The code of field `f` from `templates` (string.Template, keyed by kind(); "plain" falls
    back to "struct"), with $N its array size and $size its plain element size."""
    container, element = kind(p, f)
    template = templates.get((container, element)) or templates[(container, "struct")]
    size = plain(p, p.by_scoped[f.idl_type]) if element == "plain" else 0
    return string.Template(template).substitute(names, N=f.array, size=size)


# XCDR1 writer and reader (src/ros2/cdr.cpp's CdrWriter / CdrReader): $v the member, $n its name.
PUT = {
    ("seq", "prim"): "  w.put_sequence($v);\n",
    ("seq", "plain"): "  w.put_plain_sequence<$size>($v);\n",
    ("seq", "str"): "  w.put(static_cast<std::uint32_t>($v.size()));\n"
                    "  for (const auto& e : $v) w.put(e);\n",
    ("seq", "struct"): "  w.put(static_cast<std::uint32_t>($v.size()));\n"
                       "  for (const auto& e : $v) put(w, e);\n",
    ("array", "prim"): "  w.put($v);\n",
    ("array", "str"): "  for (const auto& e : $v) w.put(e);\n",
    ("array", "struct"): "  for (const auto& e : $v) put(w, e);\n",
    ("one", "prim"): "  w.put($v);\n",
    ("one", "str"): "  w.put($v);\n",
    ("one", "struct"): "  put(w, $v);\n",
}
GET = {
    ("seq", "prim"): "  if (!r.get_sequence($v, $n)) return false;\n",
    ("seq", "plain"): "  if (!r.get_plain_sequence<$size>($v, $n)) return false;\n",
    ("seq", "str"): "  if (!r.get_size($v, $n)) return false;\n"
                    "  for (auto& e : $v) {\n    if (!r.get(e, $n)) return false;\n  }\n",
    ("seq", "struct"): "  if (!r.get_size($v, $n)) return false;\n"
                       "  for (auto& e : $v) {\n    if (!get(r, e)) return false;\n  }\n",
    ("array", "prim"): "  if (!r.get_array($v, $n)) return false;\n",
    ("array", "str"): "  for (auto& e : $v) {\n    if (!r.get(e, $n)) return false;\n  }\n",
    ("array", "struct"): "  for (auto& e : $v) {\n    if (!get(r, e)) return false;\n  }\n",
    ("one", "prim"): "  if (!r.get($v, $n)) return false;\n",
    ("one", "str"): "  if (!r.get($v, $n)) return false;\n",
    ("one", "struct"): "  if (!get(r, $v)) return false;\n",
}
# idlc's C types (src/ros2/cyclone_convert.cpp): $a the C++ member, $b the C one.
_SEQ_TO_C = ("  {\n    auto* buffer = scratch.make<std::remove_pointer_t<decltype($b._buffer)>>"
             "($a.size());\n    for (std::size_t i = 0; i < $a.size(); ++i) {\n"
             "      ELEMENT\n    }\n    set_view(buffer, $a.size(), $b);\n  }\n")
TO_C = {
    ("seq", "prim"): "  view($a, $b);\n",
    ("seq", "str"): _SEQ_TO_C.replace("ELEMENT", "buffer[i] = c_str($a[i]);"),
    ("seq", "struct"): _SEQ_TO_C.replace("ELEMENT", "to_c($a[i], buffer[i], scratch);"),
    ("array", "prim"): "  std::copy($a.begin(), $a.end(), $b);\n",
    ("array", "str"): "  for (std::size_t i = 0; i < $N; ++i) $b[i] = c_str($a[i]);\n",
    ("array", "struct"): "  for (std::size_t i = 0; i < $N; ++i) to_c($a[i], $b[i], scratch);\n",
    ("one", "prim"): "  $b = $a;\n",
    ("one", "str"): "  $b = c_str($a);\n",
    ("one", "struct"): "  to_c($a, $b, scratch);\n",
}
FROM_C = {
    ("seq", "prim"): "  $b.assign($a._buffer, $a._buffer + $a._length);\n",
    ("seq", "str"): "  $b.resize($a._length);\n"
                    "  for (std::size_t i = 0; i < $b.size(); ++i) $b[i] = from_c_str($a._buffer[i]);\n",
    ("seq", "struct"): "  $b.resize($a._length);\n"
                       "  for (std::size_t i = 0; i < $b.size(); ++i) from_c($a._buffer[i], $b[i]);\n",
    ("array", "prim"): "  std::copy($a, $a + $N, $b.begin());\n",
    ("array", "str"): "  for (std::size_t i = 0; i < $N; ++i) $b[i] = from_c_str($a[i]);\n",
    ("array", "struct"): "  for (std::size_t i = 0; i < $N; ++i) from_c($a[i], $b[i]);\n",
    ("one", "prim"): "  $b = $a;\n",
    ("one", "str"): "  $b = from_c_str($a);\n",
    ("one", "struct"): "  from_c($a, $b);\n",
}


HEADER = "// Generated by src/ros2/idl/generate_messages.py from src/ros2/idl/*.idl: do not edit.\n"


def structs_header(p):
    out = [HEADER, "#pragma once\n#include <array>\n#include <cstdint>\n#include <string>\n"
           "#include <vector>\n\n#include \"ubot/ros2/bytes.h\"\n\nnamespace ubot::ros2 {\n"]
    package = None
    for s in p.structs:
        if s.package != package:
            package = s.package
            out.append(f"\n// ---- {package} " + "-" * max(0, 90 - len(package) - 9) + "\n")
        out.append("\n")
        if s.comment:
            out.append(f"// {s.comment}\n")
        out.append(f"struct {s.name} {{\n")
        for idl_type, name, value in p.constants.get("::".join(s.modules[:2] + [s.name]), []):
            out.append(f"  static constexpr {PRIMITIVES[idl_type][0]} {name} = {value};\n")
        for f in s.fields:
            comment = f"  // {f.comment}" if f.comment else ""
            out.append(f"  {cpp_type(p, f)} {f.name}{initializer(f)};{comment}\n")
        out.append(f"  bool operator==(const {s.name}&) const = default;\n}};\n")
    out.append("\n}  // namespace ubot::ros2\n")
    return "".join(out)


def cdr_inc(p):
    out = [HEADER, "// Included by src/ros2/cdr.cpp inside its anonymous namespace.\n"]
    for s in p.structs:
        out.append(f"[[maybe_unused]] void put(CdrWriter& w, const {s.name}& m);\n"
                   f"[[maybe_unused]] bool get(CdrReader& r, {s.name}& m);\n")
    for s in p.structs:
        unused = "" if s.fields else "  (void)w;\n  (void)m;\n"
        out.append(f"\nvoid put(CdrWriter& w, const {s.name}& m) {{\n{unused}")
        out += [emit(PUT, p, f, v=f"m.{f.name}") for f in s.fields]
        out.append("}\n")
        unused = "" if s.fields else "  (void)r;\n  (void)m;\n"
        out.append(f"\nbool get(CdrReader& r, {s.name}& m) {{\n{unused}")
        out += [emit(GET, p, f, v=f"m.{f.name}", n=f'"{f.name}"') for f in s.fields]
        out.append("  return true;\n}\n")
    return "".join(out)


def cyclone_header(p):
    out = [HEADER, "// Included by src/ros2/cyclone_convert.h in namespace ubot::ros2::cyclone.\n"]
    for s in p.structs:
        out.append(f"void to_c(const {s.name}& in, {s.c_type}& out, Scratch& scratch);\n"
                   f"void from_c(const {s.c_type}& in, {s.name}& out);\n")
    return "".join(out)


def cyclone_inc(p):
    out = [HEADER, "// Included by src/ros2/cyclone_convert.cpp in namespace ubot::ros2::cyclone.\n"]
    for s in p.structs:
        unused = "" if s.fields else "  (void)in;\n  (void)out;\n"
        body = "".join(emit(TO_C, p, f, a=f"in.{f.name}", b=f"out.{f.name}") for f in s.fields)
        out.append(f"\nvoid to_c(const {s.name}& in, {s.c_type}& out, Scratch& scratch) {{\n"
                   f"{body}{'' if 'scratch' in body else '  (void)scratch;' + chr(10)}{unused}}}\n")
        body = "".join(emit(FROM_C, p, f, a=f"in.{f.name}", b=f"out.{f.name}") for f in s.fields)
        out.append(f"\nvoid from_c(const {s.c_type}& in, {s.name}& out) {{\n{body}{unused}}}\n")
    return "".join(out)


# type_description_interfaces/msg/FieldType ids; arrays add 48, unbounded sequences 144.
FIELD_TYPE_IDS = {"kNested": 1, "kInt8": 2, "kUint8": 3, "kInt16": 4, "kUint16": 5, "kInt32": 6,
                  "kUint32": 7, "kInt64": 8, "kUint64": 9, "kFloat": 10, "kDouble": 11,
                  "kBool": 15, "kString": 17}
ARRAY, SEQUENCE = 48, 144
MSG_TYPES = {"kInt8": "int8", "kUint8": "uint8", "kInt16": "int16", "kUint16": "uint16",
             "kInt32": "int32", "kUint32": "uint32", "kInt64": "int64", "kUint64": "uint64",
             "kFloat": "float32", "kDouble": "float64", "kBool": "bool", "kString": "string"}


def msg_name(ros_name):  # sensor_msgs/msg/PointField -> sensor_msgs/PointField (.msg files' form)
    return ros_name.replace("/msg/", "/", 1)


def field_type(p, f):
    """(rosidl type id, array capacity, nested ROS name, .msg element type) of a field."""
    if f.nested:
        nested = p.by_scoped[f.idl_type].ros_name
        base, element = FIELD_TYPE_IDS["kNested"], msg_name(nested)
    else:
        name = "kString" if f.string else PRIMITIVES[f.idl_type][1]
        nested, base, element = "", FIELD_TYPE_IDS[name], MSG_TYPES[name]
    if f.sequence:
        return base + SEQUENCE, 0, nested, element + "[]"
    if f.array is not None:
        return base + ARRAY, f.array, nested, f"{element}[{f.array}]"
    return base, 0, nested, element


def individual(p, s):
    """rosidl's IndividualTypeDescription of a struct, default values left out."""
    fields = []
    for f in s.fields:
        type_id, capacity, nested, _ = field_type(p, f)
        fields.append({"name": f.name, "type": {"type_id": type_id, "capacity": capacity,
                                                "string_capacity": 0,
                                                "nested_type_name": nested}})
    return {"type_name": s.ros_name, "fields": fields}


def referenced(p, s):
    """Every struct reachable from s through nested fields (s excluded), sorted by ROS name."""
    seen, queue = {}, [s]
    while queue:
        for f in queue.pop().fields:
            if f.nested and f.idl_type not in seen:
                seen[f.idl_type] = p.by_scoped[f.idl_type]
                queue.append(seen[f.idl_type])
    return sorted((t for t in seen.values() if t is not s), key=lambda t: t.ros_name)


def msg_fields(p, s):
    return "".join(f"{field_type(p, f)[3]} {f.name}\n" for f in s.fields)


def type_info(p):
    """The REP 2011 hash is SHA-256 of json.dumps of the description, as
    rosidl_generator_type_description computes it; the .msg text is rosbag2's for MCAP: the
    type's fields, then each referenced type after a line of 80 '=' and "MSG: pkg/Type"."""
    out = [HEADER, "// Included by src/ros2/type_info.cpp: {ROS name, type description JSON, "
           "RIHS01 hash, .msg definition} of every struct.\n"]
    for s in p.structs:
        refs = referenced(p, s)
        description = json.dumps({"type_description": individual(p, s),
                                  "referenced_type_descriptions": [individual(p, r) for r in refs]})
        digest = hashlib.sha256(description.encode()).hexdigest()
        definition = msg_fields(p, s) + "".join(
            f"{'=' * 80}\nMSG: {msg_name(r.ros_name)}\n{msg_fields(p, r)}" for r in refs)
        out.append(f'{{"{s.ros_name}", {json.dumps(description)}, "RIHS01_{digest}",\n'
                   f' {json.dumps(definition)}}},\n')
    return "".join(out)


def write_if_changed(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == content:
                return
    except FileNotFoundError:
        pass
    # Two build trees may share the output folder (src/CMakeLists.txt): write whole, then rename.
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(content)
    os.replace(tmp, path)


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__.split("\n\n")[-1])
    idl_dir, out_dir = argv[1], argv[2]
    p = Parser(idl_dir)
    try:
        for name in sorted(os.listdir(idl_dir)):
            if name.endswith(".idl"):
                p.parse_file(name)
    except IdlError as e:
        sys.exit(f"generate_messages.py: {e}")
    write_if_changed(os.path.join(out_dir, "ubot/ros2/message_structs.h"), structs_header(p))
    write_if_changed(os.path.join(out_dir, "ubot/ros2/gen/message_cdr.inc"), cdr_inc(p))
    write_if_changed(os.path.join(out_dir, "ubot/ros2/gen/cyclone_messages.h"), cyclone_header(p))
    write_if_changed(os.path.join(out_dir, "ubot/ros2/gen/cyclone_messages.inc"), cyclone_inc(p))
    write_if_changed(os.path.join(out_dir, "ubot/ros2/gen/type_info.inc"), type_info(p))


if __name__ == "__main__":
    main(sys.argv)
