// The page of `igroteka arena --live`: the games in progress, each drawn by
// the page of `igroteka serve` watching its link (an embedded frame), with
// the engines' last depth and score, and the standings so far. It reads
// live.json, which the server keeps as the arena tells it, every second.
"use strict";

const $ = (id) => document.getElementById(id);
const cards = new Map(); // game id -> its card

function searchedText(game) {
  const parts = game.engines.map((engine, i) => {
    const s = game.searched[i];
    const said = s ? [s.depth != null ? `depth ${s.depth}` : "", s.score ? s.score : ""].filter(Boolean).join(", ") : "";
    return `${engine}: ${said || "…"}`;
  });
  return `ply ${game.plies} · ${parts.join(" · ")}`;
}

function card(game) {
  const box = document.createElement("article");
  box.className = "card";
  box.dataset.game = game.id;
  const title = document.createElement("h3");
  title.textContent = `Game ${game.id}: ${game.engines[0]} v ${game.engines[1]}`;
  const searched = document.createElement("p");
  searched.className = "searched";
  const frame = document.createElement("iframe");
  frame.src = `game?g=${encodeURIComponent(game.link)}&embed`;
  frame.title = title.textContent;
  const link = document.createElement("a");
  link.href = `game?g=${encodeURIComponent(game.link)}`;
  link.textContent = "Open";
  link.target = "_blank";
  title.append(" ", link);
  box.append(title, searched, frame);
  return box;
}

async function refresh() {
  let live;
  try {
    const answer = await fetch("live.json", { cache: "no-store" });
    live = await answer.json();
  } catch {
    $("title").textContent = "The tournament is over or the server is gone.";
    return;
  }
  if (!live) return;
  const played = live.total ? `${live.played} of ${live.total} games played` : "no game has ended yet";
  $("title").textContent = `${live.game} ${live.variant} · ${played}`;
  if (live.standings) $("standings").textContent = live.standings;
  const running = new Set();
  for (const game of Object.values(live.games)) {
    if (!game.link) continue;
    running.add(game.id);
    let box = cards.get(game.id);
    if (!box) {
      box = card(game);
      cards.set(game.id, box);
      $("live-games").append(box);
    }
    box.querySelector(".searched").textContent = searchedText(game);
  }
  // A finished game drops off; the last ones are listed with their links.
  for (const [id, box] of cards) {
    if (!running.has(id)) {
      box.remove();
      cards.delete(id);
    }
  }
  $("ended").replaceChildren(
    ...live.ended
      .slice()
      .reverse()
      .map((game) => {
        const item = document.createElement("li");
        const link = document.createElement("a");
        link.href = `game?g=${encodeURIComponent(game.link ?? "")}`;
        link.textContent = `Game ${game.id}`;
        item.append(link, `: ${game.engines[0]} v ${game.engines[1]}, ${game.result ?? ""}`);
        return item;
      }),
  );
}

refresh();
setInterval(refresh, 1000);
