// A shape was confirmed: its engagement's operator hears the plan is settled.
import { operatorListener } from "./engagement-operator.ts";

export const shapeConfirmed = operatorListener("shape-confirmed", "shape.confirmed", (name, engagement) => ({
  title: `The plan for ${name} is settled`,
  body: `You can build on it now in ${engagement}.`,
}));
