import { NotBuiltYet, PageHeader } from "../_components/page-header";

export const metadata = { title: "Admin" };

export default function Page() {
  return (
    <>
      <PageHeader title="Admin" />
      <NotBuiltYet issue={3} what="Administration of clients, keys and integrations" />
    </>
  );
}
