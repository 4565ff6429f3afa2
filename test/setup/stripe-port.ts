import { createServer } from "node:net";

/** A port free right now on 127.0.0.1, for stripe-local to listen on. */
export const stripeLocalPort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
