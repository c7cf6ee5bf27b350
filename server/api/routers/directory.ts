import { createTRPCRouter, publicProcedure } from "../trpc.ts";
import { listDirectory } from "../../directory/list-directory.ts";

export const directoryRouter = createTRPCRouter({
  list: publicProcedure.query(({ ctx }) => listDirectory({ db: ctx.db })),
});
