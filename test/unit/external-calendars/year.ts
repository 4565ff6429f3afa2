/**
 * A year of a busy personal calendar, made up deterministically: `count` VEVENTs from half a
 * year before `now` to half a year after, as phones and Google/Outlook exports write them.
 * About 85% single events (Berlin and New York TZIDs without VTIMEZONE, UTC, a few all-day,
 * transparent or cancelled), the rest weekly or daily series (COUNT or UNTIL, EXDATEs) and
 * overrides of their occurrences (RECURRENCE-ID). Used by the unit test and `npm run bench -- --ics`.
 */
export function generateYear(count: number, now: number): string {
  let seed = 20270301;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const DAY = 86_400_000;
  const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, "");
  const local = (ms: number) => stamp(ms).replace("Z", "");
  const date = (ms: number) => stamp(ms).slice(0, 8);

  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//year//EN"];
  const event = (uid: string, body: string[]) =>
    lines.push("BEGIN:VEVENT", `UID:${uid}`, "DTSTAMP:20270101T000000Z", ...body, "END:VEVENT");
  const seriesCount = Math.round(count * 0.1);
  const overrideCount = Math.round(count * 0.05);
  const singles = count - seriesCount - overrideCount;
  const start = now - 182 * DAY;
  // Starts on a quarter hour between 07:00 and 20:00 (as wall-clock digits; zones vary).
  const slot = () =>
    start + Math.floor(random() * 365) * DAY + (7 * 60 + Math.floor(random() * 52) * 15) * 60_000;

  for (let i = 0; i < singles; i++) {
    const at = slot();
    const minutes = pick([30, 45, 60, 60, 90, 120]);
    const kind = random();
    const extra = [
      ...(random() < 0.03 ? ["TRANSP:TRANSPARENT"] : []),
      ...(random() < 0.02 ? ["STATUS:CANCELLED"] : []),
      `SUMMARY:Event ${i}, with a comma; and a semicolon`,
    ];
    if (kind < 0.05) {
      event(`single-${i}`, [
        `DTSTART;VALUE=DATE:${date(at)}`,
        `DTEND;VALUE=DATE:${date(at + DAY)}`,
        ...extra,
      ]);
    } else if (kind < 0.25) {
      event(`single-${i}`, [
        `DTSTART:${stamp(at)}`,
        `DTEND:${stamp(at + minutes * 60_000)}`,
        ...extra,
      ]);
    } else {
      const zone = kind < 0.35 ? "America/New_York" : "Europe/Berlin";
      event(`single-${i}`, [
        `DTSTART;TZID=${zone}:${local(at)}`,
        `DURATION:PT${minutes}M`,
        ...extra,
      ]);
    }
  }
  const seriesStarts: number[] = [];
  for (let i = 0; i < seriesCount; i++) {
    const at = slot();
    seriesStarts.push(at);
    const weekly = random() < 0.8;
    const rule = weekly
      ? `RRULE:FREQ=WEEKLY;BYDAY=${pick(["MO", "TU", "WE", "TH", "FR", "MO,WE", "TU,TH"])};${
          random() < 0.5
            ? `COUNT=${10 + Math.floor(random() * 40)}`
            : `UNTIL=${stamp(at + 200 * DAY)}`
        }`
      : `RRULE:FREQ=DAILY;INTERVAL=${1 + Math.floor(random() * 3)};COUNT=${5 + Math.floor(random() * 30)}`;
    event(`series-${i}`, [
      `DTSTART;TZID=Europe/Berlin:${local(at)}`,
      `DTEND;TZID=Europe/Berlin:${local(at + 3_600_000)}`,
      rule,
      ...(random() < 0.5 ? [`EXDATE;TZID=Europe/Berlin:${local(at + 7 * DAY)}`] : []),
      `SUMMARY:Series ${i}`,
    ]);
  }
  for (let i = 0; i < overrideCount; i++) {
    const series = i % seriesCount;
    const at = seriesStarts[series] ?? start;
    event(`series-${series}`, [
      `RECURRENCE-ID;TZID=Europe/Berlin:${local(at + 14 * DAY)}`,
      `DTSTART;TZID=Europe/Berlin:${local(at + 14 * DAY + 2 * 3_600_000)}`,
      `DTEND;TZID=Europe/Berlin:${local(at + 14 * DAY + 3 * 3_600_000)}`,
      ...(random() < 0.2 ? ["STATUS:CANCELLED"] : []),
      `SUMMARY:Series ${series}, moved`,
    ]);
  }
  lines.push("END:VCALENDAR", "");
  return lines.join("\r\n");
}
