// Debug XYZ tiles for /ui-kit: each 256 px tile draws its border and its z/x/y, so the map's
// tile path (NEXT_PUBLIC_MAP_TILE_URL) can be seen lining up with the graticule without a
// network or a tile server.
import { z } from "zod";

const ZTile = z.object({
  z: z.coerce.number().int().min(0).max(22),
  x: z.coerce.number().int().min(0),
  y: z.coerce.number().int().min(0),
});

export async function GET(_req: Request, ctx: { params: Promise<{ z: string; x: string; y: string }> }) {
  const parsed = ZTile.safeParse(await ctx.params);
  if (!parsed.success) return new Response("bad tile", { status: 400 });
  const { z: zoom, x, y } = parsed.data;
  const shade = (x + y) % 2 ? "#eef2f7" : "#f8fafc";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
<rect width="256" height="256" fill="${shade}" stroke="#94a3b8" stroke-width="1"/>
<text x="128" y="132" font-family="ui-monospace,monospace" font-size="14" text-anchor="middle" fill="#94a3b8">${zoom}/${x}/${y}</text></svg>`;
  return new Response(svg, { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } });
}
