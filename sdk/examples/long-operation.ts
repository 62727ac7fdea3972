// A producer reports a long operation: one notification key, a heartbeat revision per phase,
// a Cancel follow-up, and a resolution at the end.
import { createProducerClient } from "@herald/sdk";

const herald = createProducerClient({ url: process.env.HERALD_URL!, token: process.env.HERALD_PRODUCER_KEY! });
const personId = process.env.HERALD_PERSON_ID!;
const operationId = `export-${Date.now()}`;
const phases = ["collecting", "compressing", "uploading"];

for (const [step, phase] of phases.entries()) {
  const result = await herald.publish({
    scope: "PERSON",
    personId,
    key: "example:export",
    title: "Exporting your data",
    body: `Step ${step + 1} of ${phases.length}: ${phase}`,
    source: { plugin: "example-exporter" },
    operation: { id: operationId, type: "export", state: "running", phase, elapsedSeconds: step * 5, cancellable: true },
    actions: [{ kind: "RUN_ACTION", id: "cancel", label: "Cancel", actionId: "export.cancel", fixedParams: { operationId } }],
  });
  if (!result.ok) throw new Error(`heartbeat refused: ${result.message}`);
  console.log(`revision ${result.notification.revision}: ${phase}`);
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const last = await herald.publish({
  scope: "PERSON",
  personId,
  key: "example:export",
  title: "Export ready",
  severity: "SUCCESS",
  source: { plugin: "example-exporter" },
  operation: { id: operationId, type: "export", state: "done", phase: "done", elapsedSeconds: 15, cancellable: false },
  actions: [{ kind: "OPEN_URL", id: "open", label: "Download", url: "https://example.com/exports/latest.zip" }],
});
if (!last.ok) throw new Error(last.message);
const resolved = await herald.resolve(last.notification.id, { actionId: "completed" }, operationId);
console.log(`resolved at revision ${resolved.ok ? resolved.notification.revision : "?"}`);
herald.close();
