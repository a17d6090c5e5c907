// `$.fake.<Name>`: generated data for response templates, backed by
// @faker-js/faker. The canonical names below keep their casing because the UI
// autocompletes from this list; lookup is case-insensitive (`$.fake.uuid`).
//
// Randomness and time come from the engine, not from faker's own generator:
// the faker's randomizer draws every number from a `Random` and its reference
// date ("now") from a `Clock`. A fixed `Random` (testing.ts `seededRandom`)
// and a fixed `Clock` therefore give the same values on every run.
import { Faker, base, en, type Randomizer } from "@faker-js/faker";
import type { Clock, Random } from "./types";

/** The JSON type a generator produces; numbers are JSON numbers, never numeric strings. */
export type FakeValueType = "string" | "number" | "boolean";

export interface FakeGenerator {
  describe: string;
  type: FakeValueType;
  generate(f: Faker): unknown;
  /** The same kind of value from a native source, used when the Random is unseeded (faker's UUID draws 32 numbers: 6 µs a request). */
  native?: () => unknown;
}

const pad = (n: number) => String(n).padStart(2, "0");
/** RFC 3339 at second precision ("2026-01-01T12:00:00Z"), the shape most API clients parse. */
const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");
const isoDate = (d: Date) => d.toISOString().slice(0, 10);

const gen = (type: FakeValueType, describe: string, generate: (f: Faker) => unknown): FakeGenerator => ({ type, describe, generate });

export const FAKE_GENERATORS: Record<string, FakeGenerator> = {
  // Identifiers
  UUID: { ...gen("string", "random UUID v4", (f) => f.string.uuid()), native: () => globalThis.crypto.randomUUID() },
  ULID: gen("string", "ULID (time-sortable identifier)", (f) => f.string.ulid()),
  NanoID: gen("string", "21-character URL-safe identifier", (f) => f.string.nanoid()),
  Hash: gen("string", "64 lower-case hex characters (SHA-256 shaped)", (f) => f.string.hexadecimal({ length: 64, casing: "lower", prefix: "" })),
  CommitSha: gen("string", "40 hex characters (git commit)", (f) => f.git.commitSha()),

  // People
  FirstName: gen("string", "first name", (f) => f.person.firstName()),
  LastName: gen("string", "last name", (f) => f.person.lastName()),
  MiddleName: gen("string", "middle name", (f) => f.person.middleName()),
  FullName: gen("string", "first and last name", (f) => f.person.fullName()),
  NamePrefix: gen("string", "title such as Mr. or Dr.", (f) => f.person.prefix()),
  Sex: gen("string", "female or male", (f) => f.person.sex()),
  JobTitle: gen("string", "job title", (f) => f.person.jobTitle()),
  Age: gen("number", "integer 18–90", (f) => f.number.int({ min: 18, max: 90 })),
  BirthDate: gen("string", "birth date YYYY-MM-DD (adult)", (f) => isoDate(f.date.birthdate())),

  // Contact and internet
  Email: gen("string", "e-mail address", (f) => f.internet.email()),
  ExampleEmail: gen("string", "e-mail address at an example.* domain (never delivered)", (f) => f.internet.exampleEmail()),
  Phone: gen("string", "phone number in E.164 form (+15551234567)", (f) => f.phone.number({ style: "international" })),
  Username: gen("string", "user name", (f) => f.internet.username()),
  Password: gen("string", "15-character password", (f) => f.internet.password()),
  URL: gen("string", "https URL", (f) => f.internet.url()),
  Domain: gen("string", "domain name", (f) => f.internet.domainName()),
  IPv4: gen("string", "IPv4 address", (f) => f.internet.ipv4()),
  IPv6: gen("string", "IPv6 address", (f) => f.internet.ipv6()),
  MAC: gen("string", "MAC address aa:bb:cc:dd:ee:ff", (f) => f.internet.mac()),
  Port: gen("number", "TCP port 0–65535", (f) => f.internet.port()),
  UserAgent: gen("string", "browser User-Agent string", (f) => f.internet.userAgent()),
  HTTPMethod: gen("string", "HTTP method", (f) => f.internet.httpMethod()),
  HTTPStatusCode: gen("number", "HTTP status code", (f) => f.internet.httpStatusCode()),
  Emoji: gen("string", "one emoji", (f) => f.internet.emoji()),
  ImageURL: gen("string", "placeholder image URL", (f) => f.image.url()),
  AvatarURL: gen("string", "avatar image URL", (f) => f.image.avatar()),
  JWT: gen("string", "JSON Web Token (unsigned data)", (f) => f.internet.jwt()),

  // Time: "now" is the engine clock
  RFC3339: gen("string", "current time, RFC 3339 (2026-01-01T12:00:00Z)", (f) => rfc3339(f.defaultRefDate())),
  Timestamp: gen("number", "current time, epoch milliseconds", (f) => f.defaultRefDate().getTime()),
  UnixTime: gen("number", "current time, epoch seconds", (f) => Math.floor(f.defaultRefDate().getTime() / 1000)),
  Date: gen("string", "date within the past year, YYYY-MM-DD", (f) => isoDate(f.date.past({ years: 1 }))),
  Time: gen("string", "time of day HH:MM:SS", (f) => `${pad(f.number.int(23))}:${pad(f.number.int(59))}:${pad(f.number.int(59))}`),
  PastDate: gen("string", "RFC 3339 time within the past year", (f) => rfc3339(f.date.past({ years: 1 }))),
  FutureDate: gen("string", "RFC 3339 time within the next year", (f) => rfc3339(f.date.future({ years: 1 }))),
  Month: gen("string", "month name", (f) => f.date.month()),
  Weekday: gen("string", "weekday name", (f) => f.date.weekday()),
  TimeZone: gen("string", "IANA time zone", (f) => f.location.timeZone()),

  // Numbers and text
  Int: gen("number", "integer 0–100000", (f) => f.number.int({ min: 0, max: 100_000 })),
  Float: gen("number", "number 0–1000 with 2 decimals", (f) => f.number.float({ min: 0, max: 1000, fractionDigits: 2 })),
  Bool: gen("boolean", "true or false", (f) => f.datatype.boolean()),
  Word: gen("string", "one word", (f) => f.lorem.word()),
  Sentence: gen("string", "one sentence", (f) => f.lorem.sentence()),
  Paragraph: gen("string", "one paragraph", (f) => f.lorem.paragraph()),
  Words: gen("string", "two to four English words", (f) => f.word.words({ count: { min: 2, max: 4 } })),
  Noun: gen("string", "English noun", (f) => f.word.noun()),
  Verb: gen("string", "English verb", (f) => f.word.verb()),
  Adjective: gen("string", "English adjective", (f) => f.word.adjective()),
  AlphaNumeric: gen("string", "one letter or digit", (f) => f.string.alphanumeric(1)),
  Slug: gen("string", "URL slug of three words", (f) => f.lorem.slug()),
  Semver: gen("string", "semantic version 1.2.3", (f) => f.system.semver()),
  FileName: gen("string", "file name with extension", (f) => f.system.fileName()),
  MimeType: gen("string", "MIME type", (f) => f.system.mimeType()),

  // Places
  StreetAddress: gen("string", "street address", (f) => f.location.streetAddress()),
  Street: gen("string", "street name", (f) => f.location.street()),
  City: gen("string", "city", (f) => f.location.city()),
  State: gen("string", "state or region", (f) => f.location.state()),
  ZipCode: gen("string", "postal code", (f) => f.location.zipCode()),
  Country: gen("string", "country name", (f) => f.location.country()),
  CountryCode: gen("string", "ISO 3166-1 alpha-2 country code", (f) => f.location.countryCode("alpha-2")),
  Latitude: gen("number", "latitude −90–90", (f) => f.location.latitude()),
  Longitude: gen("number", "longitude −180–180", (f) => f.location.longitude()),

  // Business and money
  Company: gen("string", "company name", (f) => f.company.name()),
  CatchPhrase: gen("string", "company catch phrase", (f) => f.company.catchPhrase()),
  ProductName: gen("string", "product name", (f) => f.commerce.productName()),
  Department: gen("string", "store department", (f) => f.commerce.department()),
  Price: gen("number", "price 1–1000 with 2 decimals", (f) => Number(f.commerce.price({ min: 1, max: 1000, dec: 2 }))),
  Currency: gen("string", "ISO 4217 currency code", (f) => f.finance.currencyCode()),
  CurrencyName: gen("string", "currency name", (f) => f.finance.currencyName()),
  CreditCardNumber: gen("string", "credit card number", (f) => f.finance.creditCardNumber()),
  CreditCardCVV: gen("string", "three-digit card security code", (f) => f.finance.creditCardCVV()),
  IBAN: gen("string", "IBAN", (f) => f.finance.iban()),
  BIC: gen("string", "BIC / SWIFT code", (f) => f.finance.bic()),
  AccountNumber: gen("string", "8-digit account number", (f) => f.finance.accountNumber()),
  Color: gen("string", "color name", (f) => f.color.human()),
  HexColor: gen("string", "#rrggbb", (f) => f.color.rgb()),
};

/** The canonical names, in the order above (UI autocompletion). */
export const FAKE_NAMES: readonly string[] = Object.keys(FAKE_GENERATORS);

const byLowerName = new Map(FAKE_NAMES.map((name) => [name.toLowerCase(), FAKE_GENERATORS[name]]));

/** Case-insensitive lookup; undefined for an unknown name. */
export function findFakeGenerator(name: string): FakeGenerator | undefined {
  return byLowerName.get(name.toLowerCase());
}

/**
 * A Faker whose every random draw comes from `random.next()` and whose "now"
 * is `clock.now()`. Seeding happens through the Random (for example
 * `seededRandom(7)` from ./testing): faker's own `seed()` is refused so nobody
 * believes they made a shared instance reproducible when they did not.
 */
export function createFaker(random: Random, clock: Clock = { now: () => Date.now() }): Faker {
  const randomizer: Randomizer = {
    next: () => random.next(),
    seed: () => {
      throw new Error("This faker draws from the engine's Random; seed that Random instead of calling faker.seed()");
    },
  };
  const faker = new Faker({ locale: [en, base], randomizer });
  faker.setDefaultRefDate(() => new Date(clock.now()));
  return faker;
}

// One Faker per process. It reads the Random and Clock of the render that
// calls `fakeValue`; the assignment and the draw happen in one synchronous
// call, so concurrent requests cannot see each other's Random.
const current: { random: Random; clock: Clock } = { random: { next: Math.random }, clock: { now: Date.now } };
const processFaker = createFaker({ next: () => current.random.next() }, { now: () => current.clock.now() });

/** Value of `$.fake.<name>`, drawn from the given Random and Clock; undefined for an unknown name. */
export function fakeValue(name: string, random: Random, clock: Clock): unknown {
  const generator = findFakeGenerator(name);
  return generator && drawFake(generator, random, clock);
}

/** A generator's value, drawn from the given Random and Clock (templates look the generator up once, when compiled). */
export function drawFake(generator: FakeGenerator, random: Random, clock: Clock): unknown {
  if (random.unseeded && generator.native) return generator.native();
  current.random = random;
  current.clock = clock;
  return generator.generate(processFaker);
}
