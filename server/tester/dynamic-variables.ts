// Postman's dynamic variables (`{{$guid}}`, `{{$randomEmail}}`…) on top of the
// mock engine's fake-data table: a Postman name points at one of its
// generators, so the API tester and mock templates draw from one table and a
// new generator serves both. The four "common" ones that Postman defines by
// their exact format (seconds, milliseconds in ISO time, 0–1000) are computed
// here, as the table's nearest entries have other ranges or precision.
import { FAKE_GENERATORS, drawFake, type FakeGenerator } from "@/server/engine/fake";
import type { Clock, Random } from "@/server/engine/types";

/** Postman name (without `$`) → the engine generator's name. */
const POSTMAN_TO_ENGINE: Record<string, keyof typeof FAKE_GENERATORS> = {
  guid: "UUID",
  randomUUID: "UUID",

  // Text, numbers, colours
  randomAlphaNumeric: "AlphaNumeric",
  randomBoolean: "Bool",
  randomColor: "Color",
  randomHexColor: "HexColor",

  // Internet
  randomIP: "IPv4",
  randomIPV6: "IPv6",
  randomMACAddress: "MAC",
  randomPassword: "Password",
  randomUserAgent: "UserAgent",
  randomSemver: "Semver",
  randomDomainName: "Domain",
  randomEmail: "Email",
  randomExampleEmail: "ExampleEmail",
  randomUserName: "Username",
  randomUrl: "URL",
  randomAvatarImage: "AvatarURL",
  randomImageUrl: "ImageURL",

  // Names and work
  randomFirstName: "FirstName",
  randomLastName: "LastName",
  randomFullName: "FullName",
  randomNamePrefix: "NamePrefix",
  randomJobTitle: "JobTitle",

  // Phone, address, location
  randomPhoneNumber: "Phone",
  randomCity: "City",
  randomStreetName: "Street",
  randomStreetAddress: "StreetAddress",
  randomCountry: "Country",
  randomCountryCode: "CountryCode",
  randomLatitude: "Latitude",
  randomLongitude: "Longitude",

  // Finance and business
  randomBankAccount: "AccountNumber",
  randomBankAccountBic: "BIC",
  randomBankAccountIban: "IBAN",
  randomCurrencyCode: "Currency",
  randomCurrencyName: "CurrencyName",
  randomCompanyName: "Company",
  randomCatchPhrase: "CatchPhrase",
  randomPrice: "Price",
  randomProductName: "ProductName",
  randomDepartment: "Department",

  // Dates
  randomDateFuture: "FutureDate",
  randomDatePast: "PastDate",
  randomWeekday: "Weekday",
  randomMonth: "Month",

  // Files
  randomFileName: "FileName",
  randomMimeType: "MimeType",

  // Grammar and lorem
  randomWord: "Word",
  randomWords: "Words",
  randomNoun: "Noun",
  randomVerb: "Verb",
  randomAdjective: "Adjective",
  randomLoremWord: "Word",
  randomLoremWords: "Words",
  randomLoremSentence: "Sentence",
  randomLoremParagraph: "Paragraph",
  randomLoremSlug: "Slug",
};

type Draw = (random: Random, clock: Clock) => unknown;

const fromTable = (generator: FakeGenerator): Draw => (random, clock) => drawFake(generator, random, clock);

const DYNAMIC: Record<string, Draw> = {
  ...Object.fromEntries(Object.entries(POSTMAN_TO_ENGINE).map(([postman, engine]) => [postman, fromTable(FAKE_GENERATORS[engine])])),
  timestamp: (_random, clock) => Math.floor(clock.now() / 1000),
  isoTimestamp: (_random, clock) => new Date(clock.now()).toISOString(),
  randomInt: (random) => Math.floor(random.next() * 1001),
};

/** Every dynamic variable's name with its `$`, for autocompletion in the workspace. */
export const DYNAMIC_VARIABLE_NAMES: readonly string[] = Object.keys(DYNAMIC).map((n) => `$${n}`);

export const defaultRandom: Random = { next: Math.random, unseeded: true };
export const defaultClock: Clock = { now: Date.now };

/**
 * A fresh value of `$name` as text, or undefined when there is no such
 * dynamic variable. Postman's names are case-sensitive, and so are these.
 */
export function dynamicVariable(name: string, random: Random = defaultRandom, clock: Clock = defaultClock): string | undefined {
  if (!name.startsWith("$")) return undefined;
  const draw = Object.prototype.hasOwnProperty.call(DYNAMIC, name.slice(1)) ? DYNAMIC[name.slice(1)] : undefined;
  if (!draw) return undefined;
  const value = draw(random, clock);
  return typeof value === "string" ? value : String(value);
}
