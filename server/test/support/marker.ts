// The marker helper is shared with the SDK and dashboard suites: it lives in @herald/testkit.
export { type Received, untilMarker } from "@herald/testkit";
