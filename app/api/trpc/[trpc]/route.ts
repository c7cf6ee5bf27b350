import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import { createTRPCContext } from "@/server/api/trpc";
import { boundTrpcRequest } from "@/server/api/bound-trpc-request";

const handler = async (request: Request) => {
  // Bounds and media type first: a refused request reaches no procedure (its refusal is thrown as the context).
  const { req, refusal } = await boundTrpcRequest(request);
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => {
      if (refusal) throw refusal;
      return createTRPCContext({ headers: req.headers });
    },
  });
};

export { handler as GET, handler as POST };
