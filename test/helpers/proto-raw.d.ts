// A .proto file imported as its text (Vite's `?raw`), in the workers pool and under Node alike.
declare module "*.proto?raw" {
  const text: string;
  export default text;
}
