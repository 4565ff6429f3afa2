import { readFileSync } from "node:fs";
import { diffProtos, parseProto } from "./proto-diff";

/**
 * `npm run rwg:compare-proto -- <Google's api_v3.proto> [our restatement]`: lists every
 * difference of test/fixtures/rwg/booking_server_v3.proto from Google's interface for the
 * methods we serve, and fails when there is one. Google's file is read where it lies; it is
 * not kept in this repository.
 */
export const SERVED = [
  "BatchAvailabilityLookupRequest",
  "BatchAvailabilityLookupResponse",
  "CheckAvailabilityRequest",
  "CheckAvailabilityResponse",
  "CreateBookingRequest",
  "CreateBookingResponse",
  "UpdateBookingRequest",
  "UpdateBookingResponse",
  "GetBookingStatusRequest",
  "GetBookingStatusResponse",
  "ListBookingsRequest",
  "ListBookingsResponse",
].map((m) => `ext.maps.booking.partner.v3.${m}`);

const [theirsPath, oursPath = "test/fixtures/rwg/booking_server_v3.proto"] = process.argv.slice(2);
if (!theirsPath) {
  console.error("usage: npm run rwg:compare-proto -- <path to Google's api_v3.proto> [ours]");
  process.exit(2);
}
const read = (path: string) => parseProto(readFileSync(path, "utf8"));
const differences = diffProtos(read(oursPath), read(theirsPath), SERVED);
for (const line of differences) console.log(line);
console.log(`${differences.length} difference(s) of ${oursPath} from ${theirsPath}`);
process.exit(differences.length === 0 ? 0 : 1);
