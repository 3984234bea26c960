import type { ChallengeTemplate } from "../challenge-template.js";
import { fixtureSetupSource } from "../fixture-setup-source.js";
import { jsonVerdictSource } from "../json-verdict-source.js";

const CUSTOMERS = ["Acme", "Birch & Co", "Cobalt", "Dune", "Ember", "Fjord"];
const SKUS = ["A-1", "B-2", "C-3", "D-4"];
const BASE_ORDERS = 10;

/** Flatten nested orders into per-customer totals; hard mode: null quantities and orders without a customer. */
export const customerTotalsTemplate: ChallengeTemplate = {
  key: "json-transform/customer-totals",
  cluster: "json-transform",
  render({ sizeMultiplier, hardMode, stream }) {
    const orders = Array.from({ length: BASE_ORDERS * sizeMultiplier }, (_, index) => {
      const items = Array.from({ length: 1 + stream.integer(3) }, () => {
        const quantity = hardMode && stream.integer(5) === 0 ? null : 1 + stream.integer(5);
        const item: Record<string, unknown> = { sku: stream.pick(SKUS), price: (50 + stream.integer(5000)) / 100 };
        if (!(hardMode && quantity === null && stream.integer(2) === 0)) item.quantity = quantity;
        return item;
      });
      const anonymous = hardMode && index > 0 && stream.integer(6) === 0;
      return { orderId: 1000 + index, customer: anonymous ? null : { name: stream.pick(CUSTOMERS) }, items };
    });
    const twist = hardMode ? " Some items have a null or missing quantity: count them as 0. Some orders have customer null: leave them out." : "";
    return {
      prompt: `orders.json is an array of orders {"orderId", "customer": {"name"}, "items": [{"sku", "quantity", "price"}]}. Write customers.json: an array of {"name", "total"} with one entry per customer — total = the sum of quantity × price over all their orders, rounded to 2 decimals — sorted by total, highest first, then by name.${twist}`,
      setup: fixtureSetupSource({ "orders.json": JSON.stringify(orders, null, 2) }),
      validator: `const fs = require("fs");
const totals = new Map();
for (const order of JSON.parse(fs.readFileSync("orders.json", "utf8"))) {
  if (order.customer === null) continue;
  const sum = order.items.reduce((acc, item) => acc + (item.quantity ?? 0) * item.price, 0);
  totals.set(order.customer.name, (totals.get(order.customer.name) ?? 0) + sum);
}
const expected = [...totals]
  .map(([name, total]) => ({ name, total: Math.round(total * 100) / 100 }))
  .sort((a, b) => b.total - a.total || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
${jsonVerdictSource("customers.json")}`,
      outputFile: "customers.json",
      referenceSolution: `const fs = require("fs");
const orders = JSON.parse(fs.readFileSync("orders.json", "utf8"));
const byName = {};
for (const order of orders) {
  if (!order.customer) continue;
  let sum = 0;
  for (const item of order.items) sum += (typeof item.quantity === "number" ? item.quantity : 0) * item.price;
  byName[order.customer.name] = (byName[order.customer.name] || 0) + sum;
}
const rows = Object.keys(byName).map((name) => ({ name, total: Math.round(byName[name] * 100) / 100 }));
rows.sort((a, b) => (b.total !== a.total ? b.total - a.total : a.name < b.name ? -1 : 1));
fs.writeFileSync("customers.json", JSON.stringify(rows, null, 2));
`,
    };
  },
};
