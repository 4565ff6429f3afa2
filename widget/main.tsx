import { render } from "preact";
import { createClient } from "./api";
import { App } from "./App";

const root = document.getElementById("widget");
const params = new URLSearchParams(location.search);
const workspace = params.get("workspace");
const loc = params.get("location");
const key = params.get("key");

if (root) {
  if (!workspace || !loc || !key) {
    root.innerHTML =
      '<p class="notice notice-error" role="alert">This booking widget needs <code>workspace</code>, <code>location</code> and <code>key</code> in its address.</p>';
  } else {
    render(<App api={createClient(workspace, key)} location={loc} />, root);
  }
  // Tell an embedding page how tall we are, so its iframe can fit without a scrollbar.
  if (window.parent !== window && "ResizeObserver" in window) {
    new ResizeObserver(() =>
      window.parent.postMessage(
        { type: "salon-widget:height", height: document.documentElement.scrollHeight },
        "*",
      ),
    ).observe(document.body);
  }
}
