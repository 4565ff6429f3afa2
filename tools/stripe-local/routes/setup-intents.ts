import { resourceMissing } from "../errors";
import type { SetupIntent } from "../objects";
import { expand } from "./expand";
import { expandOf } from "./params";
import type { Route } from "./route";

export const retrieveSetupIntent: Route = {
  method: "get",
  path: "/v1/setup_intents/{intent}",
  handle: (ctx, p, path) => {
    const si = ctx.state.get<SetupIntent>(path.intent ?? "", "setup_intent");
    if (!si) throw resourceMissing("setup_intent", path.intent ?? "", "intent");
    return expand(ctx.state, si, expandOf(p));
  },
};
