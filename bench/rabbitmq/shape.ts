// Q1's request and the reply both consumers send (the mock's payload and the
// plain echo's fixed answer are the same bytes).
export const Q1_REQUEST = { kind: "order", id: 42, items: [{ sku: "A-1", qty: 2 }] };
export const Q1_REPLY = { accepted: true, id: 42, status: "queued" };
