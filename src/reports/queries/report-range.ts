/** What every report reads by: a location of the scope's workspace and its days `from`..`to` (day numbers). */
export interface DayRange {
  locationId: string;
  from: number;
  to: number;
}
