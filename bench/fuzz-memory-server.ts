// bench:fuzz-memory's Herald in a process of its own (forked with an IPC channel): FUZZ_DATABASE_URL
// names its database. Sends { ready, url, producerKey, personToken }, then answers "heap" with the
// settled heap, { snapshot: [dir, name] } with the snapshot's path, and "stop" by closing and exiting.
import { startSubject } from "./fuzz-subject.ts";

const send = (message: unknown) => process.send!(message);
const subject = await startSubject(process.env.FUZZ_DATABASE_URL!);
send({ ready: true, url: subject.url, producerKey: subject.producerKey, personToken: subject.personToken });
process.on("message", (message: "heap" | "stop" | { snapshot: [string, string] }) => {
  if (message === "heap") void subject.heap().then((bytes) => send({ heap: bytes }));
  else if (message === "stop") void subject.close().then(() => process.exit(0));
  else void subject.snapshot(...message.snapshot).then((file) => send({ snapshotFile: file }));
});
