// The page's ROS 2 message reader: Foxglove's own, not ours. @foxglove/rosmsg parses a channel's
// schema (the ros2msg text ubot and every ROS 2 MCAP advertise, dependencies included) and
// @foxglove/rosmsg2-serialization reads its CDR into the objects Foxglove's panels see (field
// names as in the .msg, primitive arrays as typed arrays). esbuild bundles this file with them
// at build time (src/live/CMakeLists.txt) into ros2_reader.js, which ubot serves with the page:
// fetched from npm when building, never at run time.
import { parse } from "@foxglove/rosmsg";
import { MessageReader } from "@foxglove/rosmsg2-serialization";

const readers = new Map();  // schema text -> MessageReader

window.ubotRos2 = {
  // A function that decodes one CDR message of the schema (ros2msg text); throws when the text
  // is not a message definition.
  reader(schemaName, schemaText) {
    let r = readers.get(schemaText);
    if (!r) {
      r = new MessageReader(parse(schemaText, { ros2: true }));
      readers.set(schemaText, r);
    }
    return (bytes) => r.readMessage(bytes);
  },
};
