import { viewerProcedure, createTRPCRouter } from "../trpc.ts";
import { listDirectory } from "../../directory/list-directory.ts";

export const directoryRouter = createTRPCRouter({
  list: viewerProcedure.query(({ ctx }) => listDirectory({ db: ctx.db, clock: ctx.clock })),
});
