import { PageHeader } from "../_components/page-header";
import { PartnerConsole } from "./partner-console";

export const metadata = { title: "Partner console" };

export default function Page() {
  return (
    <>
      <PageHeader title="Partner console">
        Act as a partner system: get a token from the real identity server for a client, agency and user, then call any
        inbound operation with a form generated from{" "}
        <a className="underline" href="/v1/openapi.json">
          /v1/openapi.json
        </a>
        . Every request can be copied as curl.
      </PageHeader>
      <PartnerConsole />
    </>
  );
}
