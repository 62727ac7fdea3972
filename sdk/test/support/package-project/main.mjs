// Plain Node, no TypeScript, no bundler: what a producer script that installed @herald/sdk runs.
import { createHeraldClient, HeraldValidationError } from "@herald/sdk";

const producer = createHeraldClient({ url: process.env.HERALD_URL, token: process.env.HERALD_PRODUCER_KEY });
const person = createHeraldClient({ url: process.env.HERALD_URL, token: async () => process.env.HERALD_PERSON_TOKEN });

const result = await producer.publish({
  scope: "PERSON",
  personId: process.env.HERALD_PERSON_ID,
  key: "packed:1",
  title: "Packed and published",
  source: { plugin: "packed-sdk" },
});
if (!result.ok) throw new Error(result.message);

let invalid = null;
try {
  await producer.publish({ scope: "PERSON", personId: process.env.HERALD_PERSON_ID, key: "packed:2", title: "", source: { plugin: "packed-sdk" } });
} catch (error) {
  if (error instanceof HeraldValidationError) invalid = { name: error.name, field: error.field };
  else throw error;
}

const page = await person.page({ first: 10 });
producer.close();
person.close();
console.log(
  JSON.stringify({
    published: { id: result.notification.id, title: result.notification.title, revision: result.notification.revision },
    listed: page.items.map((n) => n.id),
    invalid,
  }),
);
