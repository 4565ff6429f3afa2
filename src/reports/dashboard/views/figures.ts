/** What a dashboard shows, read from the reports (amounts in minor units). */
export interface DashboardFigures {
  revenue: { dates: string[]; net: number[]; totalNet: number };
  utilization: {
    dates: string[];
    staffers: string[];
    /** utilization per staffer (row, in `staffers` order) and day (column); null: no working time. */
    cells: (number | null)[][];
    total: number | null;
  };
  noShows: {
    bookings: number;
    didntCome: number;
    lateCancels: number;
    noShowRate: number | null;
    lateCancelRate: number | null;
    fees: number;
  };
}

/** What the page's script reads from the page (no request of its own). */
export interface DashboardPayload {
  locale: string;
  currency: string;
  labels: {
    net: string;
    utilization: string;
    attended: string;
    didntCome: string;
    lateCancels: string;
  };
  revenue: { dates: string[]; net: number[] };
  utilization: { dates: string[]; staffers: string[]; cells: (number | null)[][] };
  noShows: { attended: number; didntCome: number; lateCancels: number };
}
