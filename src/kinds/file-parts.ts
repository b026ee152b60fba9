/**
 * Each kind's part of the file — its schema fragment (`kinds/<kind>/schema.ts`) and its file form
 * (`kinds/<kind>/file.ts`) — without the rest of the kind: what the file loader needs (src/config/).
 * Loading a file thus loads no plan handler, export or Pulumi schema; `audit` and `validate`,
 * which never plan, start without them (docs/SPEED.md, "Start-up and the file"). The registry
 * (`kinds/index.ts`) holds the same parts in its kinds; test/kinds/file-parts.test.ts holds the two
 * lists to each other, so a kind added there and not here fails.
 */
import type { FileForm, FileFragment } from "../kit/contract";
import { subAccountsFragment } from "./sub-account/schema";
import { subAccountFileForm } from "./sub-account/file";
import { sipTrunksFragment } from "./sip-trunk/schema";
import { sipTrunkFileForm } from "./sip-trunk/file";
import { callWebhooksFragment } from "./call-webhook/schema";
import { callWebhookFileForm } from "./call-webhook/file";
import { numbersFragment } from "./number/schema";
import { numberFileForm } from "./number/file";
import { senderIdsFragment } from "./sender-id/schema";
import { senderIdFileForm } from "./sender-id/file";
import { tenDlcCampaignNumbersFragment } from "./ten-dlc-number/schema";
import { tenDlcNumberFileForm } from "./ten-dlc-number/file";
import { accountCallbacksFragment } from "./account-callbacks/schema";
import { accountCallbacksFileForm } from "./account-callbacks/file";

/** One kind's part of the file. */
export interface KindFilePart {
  /** The kind's name (`sub_account`), as in the registry. */
  readonly name: string;
  readonly file: FileFragment;
  readonly fileForm: FileForm<unknown>;
}

const PARTS: readonly KindFilePart[] = [
  { name: "sub_account", file: subAccountsFragment, fileForm: subAccountFileForm as FileForm<unknown> },
  { name: "sip_trunk", file: sipTrunksFragment, fileForm: sipTrunkFileForm as FileForm<unknown> },
  { name: "call_webhook", file: callWebhooksFragment, fileForm: callWebhookFileForm as FileForm<unknown> },
  { name: "number", file: numbersFragment, fileForm: numberFileForm as FileForm<unknown> },
  { name: "sender_id", file: senderIdsFragment, fileForm: senderIdFileForm as FileForm<unknown> },
  { name: "ten_dlc_number", file: tenDlcCampaignNumbersFragment, fileForm: tenDlcNumberFileForm as FileForm<unknown> },
  { name: "account_callbacks", file: accountCallbacksFragment, fileForm: accountCallbacksFileForm as FileForm<unknown> },
];

const IN_FILE_ORDER: readonly KindFilePart[] = [...PARTS].sort((a, b) => a.file.order - b.file.order);

/** The kinds' file parts in the order their keys sit in the file (as `kindsInFileOrder` of the registry). */
export function filePartsInFileOrder(): readonly KindFilePart[] {
  return IN_FILE_ORDER;
}
