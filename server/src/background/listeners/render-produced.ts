// A render finished: its engagement's operator hears it is ready, in their words.
import { operatorListener } from "./engagement-operator.ts";

export const renderProduced = operatorListener("render-ready", "render.produced", (name, engagement) => ({
  title: `Your render of ${name} is ready`,
  body: `It is ready to look at in ${engagement}.`,
}));
