import { NotBuiltYet, PageHeader } from "../_components/page-header";

export const metadata = { title: "Partner console" };

export default function Page() {
  return (
    <>
      <PageHeader title="Partner console" />
      <NotBuiltYet issue={7} what="The partner console (tokens and every inbound operation)" />
    </>
  );
}
