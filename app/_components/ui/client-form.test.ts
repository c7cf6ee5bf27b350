// ClientForm (form.tsx) as the server renders it, before hydration: its controls
// are disabled, so a click cannot submit natively and nothing typed is lost.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { expect, it } from "vitest";
import { ClientForm, Input } from "./form.tsx";

it("renders every control inside a disabled fieldset until hydration", () => {
  const html = renderToString(
    createElement(
      ClientForm,
      { "aria-label": "probe", className: "grid" },
      createElement(Input, { name: "url" }),
      createElement("button", { type: "submit" }, "Go"),
    ),
  );
  expect(html).toMatch(
    /^<form aria-label="probe" class="grid"><fieldset disabled="" class="contents"><input [^>]*name="url"[^>]*\/?><button type="submit">Go<\/button><\/fieldset><\/form>$/,
  );
});
