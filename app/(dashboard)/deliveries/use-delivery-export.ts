"use client";
// Export a delivery or its lane: the export query fetched fresh, saved as a JSON file by the browser.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/react";
import { exportFileName, type TExportDeliveriesInput } from "@/server/webhooks/admin/export-file-name";

/** Saves a JSON document as a file through the browser's download. */
function downloadJson(fileName: string, value: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: "application/json" }));
  const a = Object.assign(document.createElement("a"), { href: url, download: fileName });
  document.body.append(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

/** A mutation whose result is how many deliveries the file holds. */
export function useDeliveryExport() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: TExportDeliveriesInput) => {
      const file = await queryClient.fetchQuery({ ...trpc.deliveries.export.queryOptions(input), staleTime: 0 });
      downloadJson(exportFileName(input), file);
      return file.deliveries.length;
    },
  });
}
