// A React application showing Herald's inbox through @herald/sdk/react (server and token from the fragment).
import { Inbox } from "@herald/sdk/react";
import { createElement } from "react";
import { createRoot } from "react-dom/client";

const settings = new URLSearchParams(location.hash.slice(1));
createRoot(document.getElementById("root")!).render(
  createElement(
    "main",
    null,
    createElement("h1", null, "React app"),
    createElement(Inbox, { server: settings.get("server") ?? "", token: settings.get("token") ?? "" }),
  ),
);
