import { findIana } from "windows-iana";
import { WINDOWS_DISPLAY_NAMES } from "./windows-display-names";

/**
 * What a TZID that names no VTIMEZONE of the file and no IANA zone stands for, as Outlook,
 * Exchange and other Windows-made calendars write them:
 * - a Windows zone ID ("W. Europe Standard Time"): its IANA zone by CLDR's windowsZones table
 *   (the package windows-iana), as other parsers read it;
 * - a Windows display name ("(UTC+10:00) Canberra, Melbourne, Sydney", also "(GMT+10:00) …"):
 *   its city list looked up in the display-name table;
 * - an offset alone ("(GMT +01:00)", "UTC+01:00", "GMT-5"), or a display name whose cities are
 *   unknown: that fixed offset. It is a wrong hour for half the year where the writer's zone has
 *   daylight saving time, but never the 6 to 15 hours a salon's zone in its place can be.
 * Null when the name is none of these (it is then read in the salon's zone, as a floating time).
 */
export type ForeignZone = { iana: string } | { offsetMinutes: number };

export function foreignZone(tzid: string): ForeignZone | null {
  const name = tzid.replace(/^"+|"+$/g, "").trim();
  if (name.length === 0 || name.length > 200) return null;
  const windows = findIana(name);
  if (windows && windows.length > 0 && windows[0]) return { iana: windows[0] };
  const display = DISPLAY.exec(name);
  if (display) {
    const cities = normalise(display[2] ?? "");
    const known = cities ? DISPLAY_NAMES.get(cities) : undefined;
    if (known) return { iana: known };
    const offset = display[1] === undefined ? 0 : offsetMinutes(display[1]);
    return offset === null ? null : { offsetMinutes: offset };
  }
  const bare = BARE_OFFSET.exec(name);
  if (bare) {
    const offset = offsetMinutes(bare[1] ?? "");
    return offset === null ? null : { offsetMinutes: offset };
  }
  return null;
}

/** "(UTC+10:00) Canberra, …", "(GMT +01:00)", "(UTC) Dublin, …": the offset and the rest. */
const DISPLAY = /^\(\s*(?:GMT|UTC)\s*([+-−]\s*\d{1,2}(?::?\d{2})?)?\s*\)\s*(.*)$/iu;
/** "UTC+01:00", "GMT -0500", "UTC+1": an offset with nothing else. */
const BARE_OFFSET = /^(?:GMT|UTC)\s*([+-−]\s*\d{1,2}(?::?\d{2})?)$/iu;

const normalise = (cities: string) =>
  cities
    .toLowerCase()
    .replace(/\\,/g, ",")
    .replace(/\s+/g, " ")
    .replace(/\band\b/g, "&")
    .trim();

const DISPLAY_NAMES = new Map(
  Object.entries(WINDOWS_DISPLAY_NAMES).map(([cities, iana]) => [normalise(cities), iana]),
);

/** "+10:00", "- 0530", "+1" → signed minutes; null beyond ±14 hours or a minute part over 59. */
function offsetMinutes(text: string): number | null {
  const match = /^([+-−])\s*(\d{1,2})(?::?(\d{2}))?$/u.exec(text.trim());
  if (!match) return null;
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? "0");
  if (minutes > 59 || hours * 60 + minutes > 14 * 60) return null;
  return (match[1] === "+" ? 1 : -1) * (hours * 60 + minutes);
}
