/**
 * The Sender ID kind's part of the native provider's package schema (`wavix:index:SenderId`;
 * src/kit/provider/schema.ts): the same inputs as the dynamic `SenderId` (./pulumi.ts), the
 * descriptions of the file's `sender_ids:` (./schema.ts).
 */
import { fileDescription, type KindSchemaPart, onDeleteProperty, ORIGIN_OUTPUTS, type SchemaProperties, stringEnum, typeRef } from "../../kit/provider/schema";
import { senderIdsFragment } from "./schema";

const d = (key: string) => fileDescription(senderIdsFragment.definitions ?? {}, "senderId", key);

// The API has no update: a change of any field it shows replaces the Sender ID (with `replace: true`).
const inputs: SchemaProperties = {
  senderId: { type: "string", description: d("sender_id"), replaceOnChanges: true },
  type: { ...typeRef("SenderIdType"), description: "`alphanumeric` (a text sender name) or `numeric` (a phone number).", replaceOnChanges: true },
  countries: { type: "array", items: { type: "string" }, description: "Two-letter ISO country codes where the Sender ID is allowlisted (a set: order does not matter).", replaceOnChanges: true },
  usecase: { ...typeRef("SenderIdUsecase"), description: "`transactional`, `promo` or `authentication`.", replaceOnChanges: true },
  monthlyVolume: { ...typeRef("SenderIdMonthlyVolume"), description: d("monthly_volume") },
  samples: { type: "array", items: { type: "string" }, description: d("samples"), replaceOnChanges: true },
  replace: {
    type: "boolean",
    description:
      "Allow a change to be carried out by deleting the Sender ID and creating it again (the API has no update; the new one must be approved again). Without it such a change is refused.",
  },
  onDelete: onDeleteProperty("deletes the Sender ID"),
};

export const senderIdSchema: KindSchemaPart = {
  resource: {
    description:
      "An SMS Sender ID. The API has no update: a change of a field it shows is a replacement (delete, then create, then approval again), allowed only with `replace: true`. Import id: the Sender ID itself (`ACME`) or its Wavix id.",
    inputProperties: inputs,
    requiredInputs: ["senderId", "type", "countries", "usecase"],
    properties: { ...inputs, ...ORIGIN_OUTPUTS, wavixId: { type: "string", description: "The Sender ID's Wavix id (also the resource ID)." } },
    required: ["senderId", "type", "countries", "usecase", "wavixId"],
  },
  types: {
    SenderIdType: stringEnum("What a Sender ID is.", { alphanumeric: "A text sender name.", numeric: "A phone number." }),
    SenderIdUsecase: stringEnum("What a Sender ID's messages are for.", {
      transactional: "Transactional messages.",
      promo: "Promotional messages.",
      authentication: "Authentication codes.",
    }),
    SenderIdMonthlyVolume: stringEnum("Expected messages a month.", {
      "1-1000": "Up to 1,000.",
      "1001-20000": "1,001 to 20,000.",
      "20001-50000": "20,001 to 50,000.",
      "50001-100000": "50,001 to 100,000.",
      "More than 100000": "More than 100,000.",
    }, { "1-1000": "UpTo1000", "1001-20000": "UpTo20000", "20001-50000": "UpTo50000", "50001-100000": "UpTo100000", "More than 100000": "MoreThan100000" }),
  },
};
