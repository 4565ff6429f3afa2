export * from "./compose";
export * from "./format";
export * from "./kinds";
export * from "./locale";
export * from "./settings";
export * from "./template";
export * from "./texts";
export * from "./variables";
