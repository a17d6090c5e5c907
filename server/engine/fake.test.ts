import { describe, expect, it } from "vitest";
import { FAKE_GENERATORS, FAKE_NAMES, createFaker, drawFake, fakeValue, findFakeGenerator } from "./fake";
import { seededRandom } from "./testing";

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
const clock = { now: () => NOW };

const REQUIRED = [
  "UUID", "Email", "FirstName", "LastName", "FullName", "RFC3339", "Timestamp", "Date", "Time", "Int", "Float", "Bool",
  "Word", "Sentence", "Paragraph", "Phone", "City", "Country", "CountryCode", "StreetAddress", "ZipCode", "Company",
  "JobTitle", "Username", "Password", "URL", "IPv4", "IPv6", "MAC", "Color", "HexColor", "Currency", "Price",
  "CreditCardNumber", "IBAN", "UserAgent", "Latitude", "Longitude", "Domain", "Emoji", "ProductName", "Hash",
];

describe("FAKE_GENERATORS", () => {
  it("has at least 40 names, including every required one with its canonical casing", () => {
    expect(FAKE_NAMES.length).toBeGreaterThanOrEqual(40);
    for (const name of REQUIRED) expect(FAKE_NAMES).toContain(name);
  });

  it("has no two names that differ only in case (lookup is case-insensitive)", () => {
    expect(new Set(FAKE_NAMES.map((n) => n.toLowerCase())).size).toBe(FAKE_NAMES.length);
  });

  it.each(FAKE_NAMES)("%s produces a value of its documented type", (name) => {
    const generator = FAKE_GENERATORS[name];
    expect(generator.describe.length).toBeGreaterThan(0);
    const f = createFaker(seededRandom(11), clock);
    for (let i = 0; i < 5; i++) {
      const value = generator.generate(f);
      expect(typeof value).toBe(generator.type);
      if (typeof value === "number") expect(Number.isFinite(value)).toBe(true);
      if (typeof value === "string") expect(value.length).toBeGreaterThan(0);
    }
  });

  it.each([
    ["UUID", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/],
    ["Email", /^[^@\s]+@[^@\s]+\.[a-z]+$/i],
    ["Date", /^\d{4}-\d{2}-\d{2}$/],
    ["Time", /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/],
    ["CountryCode", /^[A-Z]{2}$/],
    ["Currency", /^[A-Z]{3}$/],
    ["HexColor", /^#[0-9a-f]{6}$/i],
    ["IPv4", /^(\d{1,3}\.){3}\d{1,3}$/],
    ["MAC", /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/],
    ["Hash", /^[0-9a-f]{64}$/],
    ["URL", /^https?:\/\//],
    ["Phone", /^\+\d+$/],
  ])("%s has the documented shape", (name, shape) => {
    const f = createFaker(seededRandom(3), clock);
    for (let i = 0; i < 20; i++) expect(FAKE_GENERATORS[name].generate(f)).toMatch(shape);
  });

  it("keeps Int, Price and Float as JSON numbers, Int an integer and Price two decimals at most", () => {
    const f = createFaker(seededRandom(5), clock);
    for (let i = 0; i < 50; i++) {
      expect(Number.isInteger(FAKE_GENERATORS.Int.generate(f))).toBe(true);
      const price = FAKE_GENERATORS.Price.generate(f) as number;
      expect(Math.round(price * 100) / 100).toBe(price);
      const lat = FAKE_GENERATORS.Latitude.generate(f) as number;
      expect(lat).toBeGreaterThanOrEqual(-90);
      expect(lat).toBeLessThanOrEqual(90);
    }
  });

  it("reads now from the clock: RFC3339, Timestamp and UnixTime", () => {
    const f = createFaker(seededRandom(), clock);
    expect(FAKE_GENERATORS.RFC3339.generate(f)).toBe("2026-01-02T03:04:05Z");
    expect(FAKE_GENERATORS.Timestamp.generate(f)).toBe(NOW);
    expect(FAKE_GENERATORS.UnixTime.generate(f)).toBe(Math.floor(NOW / 1000));
  });
});

describe("lookup", () => {
  it.each(["UUID", "uuid", "Uuid", "rfc3339", "FIRSTNAME"])("%s is found regardless of case", (name) => {
    expect(findFakeGenerator(name)).toBe(FAKE_GENERATORS[FAKE_NAMES.find((n) => n.toLowerCase() === name.toLowerCase())!]);
  });

  it("returns undefined for an unknown name", () => {
    expect(findFakeGenerator("NoSuchThing")).toBeUndefined();
    expect(fakeValue("NoSuchThing", seededRandom(), clock)).toBeUndefined();
  });
});

describe("determinism", () => {
  const draw = (seed: number) => {
    const random = seededRandom(seed);
    return FAKE_NAMES.map((name) => fakeValue(name, random, clock));
  };

  it("gives the same values for the same seed, through the shared process faker", () => {
    expect(draw(7)).toEqual(draw(7));
  });

  it("gives different values for different seeds", () => {
    expect(draw(7)).not.toEqual(draw(8));
  });

  it("draws every random number from the engine's Random", () => {
    let calls = 0;
    const counting = { next: () => (calls++, 0.5) };
    fakeValue("UUID", counting, clock);
    expect(calls).toBeGreaterThan(0);
  });

  it("refuses faker.seed(): reproducibility comes from the Random", () => {
    expect(() => createFaker(seededRandom(), clock).seed(1)).toThrow(/engine's Random/);
  });
});

describe("native sources", () => {
  it("an unseeded Random draws UUIDs from crypto.randomUUID; a seeded one stays reproducible", () => {
    const uuid = findFakeGenerator("UUID")!;
    const a = drawFake(uuid, { next: Math.random, unseeded: true }, { now: Date.now });
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(drawFake(uuid, seededRandom(3), { now: Date.now })).toBe(drawFake(uuid, seededRandom(3), { now: Date.now }));
  });
});
