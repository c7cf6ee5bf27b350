import { describe, expect, it } from "vitest";
import { v3Declaration, type AboutDeclaration } from "./about-declaration.ts";
import { ExternalReceiver } from "./receivers.ts";

// What a JavaScript test (no compiler to catch it) passing the capability flags gets: an error at
// once, not a discovery rejected by the server 15 s later.
const flagsForm = { labelChanged: false } as unknown as AboutDeclaration;

describe("ExternalReceiver's declaration", () => {
  it("refuses the flags form at once, naming v3Declaration", async () => {
    await expect(ExternalReceiver.start({ declaration: flagsForm })).rejects.toThrow(
      'declaration: no "version": pass an /about body, e.g. v3Declaration({ labelChanged: false })',
    );
    const receiver = await ExternalReceiver.start();
    try {
      expect(() => receiver.declare(flagsForm)).toThrow(/^declaration: no "version"/);
      expect(() => receiver.declare({ version: "3.0" } as AboutDeclaration)).toThrow(/^declaration: no "supports"/);
    } finally {
      await receiver.close();
    }
  });

  it("answers GET /about with the declaration it was given, and the one declared later", async () => {
    const receiver = await ExternalReceiver.start({ declaration: v3Declaration({ labelChanged: false }) });
    try {
      const about = async () => (await fetch(`${receiver.url}/about`)).json();
      expect(await about()).toMatchObject({ version: "3.0", supports: { incident: { labelChanged: false } } });
      receiver.declare(v3Declaration({}, "3.1"));
      expect(await about()).toMatchObject({ version: "3.1", supports: { incident: { labelChanged: true } } });
      expect(receiver.aboutServed).toBe(2);
    } finally {
      await receiver.close();
    }
  });
});
