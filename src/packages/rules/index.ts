export * from "./allocate";
export * from "./periods";
export * from "./renewal";
export * from "./settle-use";
export * from "./status";
export * from "./bounds";
