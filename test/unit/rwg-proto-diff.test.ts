import { describe, expect, it } from "vitest";
import { diffProtos, parseProto } from "../../tools/rwg/proto-diff";

// tools/rwg/compare-proto.ts holds our restatement to Google's api_v3.proto with this.
const theirs = parseProto(`
syntax = "proto3";
package p;
message Slot {
  string merchant_id = 1;
  int64 start_sec = 3;
  repeated string tags = 4;
  Mode mode = 5;
  oneof id { string a = 6; string b = 7; }
  Inner inner = 8;
  message Inner { string x = 1; }
  reserved 2;
}
enum Mode { MODE_UNSPECIFIED = 0; ON = 1; OFF = 2; }
message Unused { string y = 1; }
`);

describe("diffProtos", () => {
  it("finds nothing between a proto and itself (or a restatement in another order)", () => {
    const same = parseProto(`
syntax = "proto3";
package p;
enum Mode { MODE_UNSPECIFIED = 0; OFF = 2; ON = 1; }
message Slot {
  message Inner { string x = 1; }
  reserved 2;
  Inner inner = 8;
  oneof id { string b = 7; string a = 6; }
  Mode mode = 5;
  repeated string tags = 4;
  int64 start_sec = 3;
  string merchant_id = 1;
}
message Unused { string y = 1; }
`);
    expect(diffProtos(same, theirs)).toEqual([]);
  });

  it("lists every field, enum, oneof and reserved difference", () => {
    const ours = parseProto(`
syntax = "proto3";
package p;
message Slot {
  string merchant_id = 2;
  int32 start_sec = 3;
  string tags = 4;
  Mode mode = 5;
  string a = 6;
  oneof id { string b = 7; }
  string extra = 9;
  reserved 10;
}
enum Mode { MODE_UNSPECIFIED = 0; ON = 3; STANDBY = 4; }
`);
    expect(diffProtos(ours, theirs)).toEqual([
      "p.Slot.merchant_id: number is 2, theirs 1",
      "p.Slot.start_sec: type is int32, theirs int64",
      "p.Slot.tags: label is singular, theirs repeated",
      "p.Slot.a: oneof is none, theirs id",
      "p.Slot.inner: field missing (singular p.Slot.Inner = 8)",
      "p.Slot.extra: field not in theirs (= 9)",
      'p.Slot: reserved ["10-10"], theirs ["2-2"]',
      "p.Slot.Inner: message missing",
      "p.Mode.ON: number is 3, theirs 1",
      "p.Mode.OFF: enum value missing (= 2)",
      "p.Mode.STANDBY: enum value not in theirs",
      "p.Unused: message missing",
    ]);
  });

  it("with `from`, compares only what those messages need", () => {
    const ours = parseProto(`
syntax = "proto3";
package p;
message Slot {
  string merchant_id = 1;
  int64 start_sec = 3;
  repeated string tags = 4;
  Mode mode = 5;
  oneof id { string a = 6; string b = 7; }
  Inner inner = 8;
  message Inner { string x = 1; }
  reserved 2;
}
enum Mode { MODE_UNSPECIFIED = 0; ON = 1; OFF = 2; }
message Mine { string z = 1; }
`);
    expect(diffProtos(ours, theirs, ["p.Slot"])).toEqual(["p.Mine: not in theirs"]);
  });
});
