import { createApp } from "./app";
import type { Env } from "./env";

export { StafferCalendar } from "./durable-objects/staffer-calendar";

const app = createApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
