export * from "./calendar";
export * from "./catalogue";
export * from "./customers";
export * from "./locations";
export * from "./settings";
export * from "./staff";
export * from "./workspaces";
