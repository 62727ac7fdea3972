// The split clients: each side has only its own calls, and HeraldClient still answers every call of both.
import { describe, expect, it } from "vitest";
import { createHeraldClient, createPersonClient, createProducerClient, HeraldClient, PersonClient, ProducerClient } from "../../src/index.ts";

const methods = (proto: object) => Object.getOwnPropertyNames(proto).filter((name) => name !== "constructor");
const options = { url: "http://127.0.0.1:9/graphql", token: "herald_pt_unused" };

describe("person and producer clients", () => {
  it("keeps each side's calls on its own client", () => {
    const person = createPersonClient(options);
    const producer = createProducerClient(options);
    expect(person).toBeInstanceOf(PersonClient);
    expect(producer).toBeInstanceOf(ProducerClient);
    expect("publish" in person).toBe(false);
    expect("acknowledgeActionInvocation" in person).toBe(false);
    expect("page" in producer).toBe(false);
    expect("live" in producer).toBe(false);
    for (const shared of ["sessionMetadata", "signOut", "close"]) {
      expect(typeof (person as unknown as Record<string, unknown>)[shared]).toBe("function");
      expect(typeof (producer as unknown as Record<string, unknown>)[shared]).toBe("function");
    }
    person.close();
    producer.close();
  });

  it("gives HeraldClient every method of both sides", () => {
    const client = createHeraldClient(options);
    expect(client).toBeInstanceOf(HeraldClient);
    expect(client).toBeInstanceOf(PersonClient);
    const missing = [...methods(PersonClient.prototype), ...methods(ProducerClient.prototype)].filter(
      (name) => typeof (client as unknown as Record<string, unknown>)[name] !== "function",
    );
    expect(missing).toEqual([]);
    expect(methods(ProducerClient.prototype).length).toBeGreaterThan(20);
    client.close();
  });
});
