// A Svelte application showing Herald's inbox through @herald/sdk/svelte (server and token from the fragment).
import { mount } from "svelte";
import App from "./App.svelte";

const settings = new URLSearchParams(location.hash.slice(1));
mount(App, { target: document.getElementById("root")!, props: { server: settings.get("server") ?? "", token: settings.get("token") ?? "" } });
