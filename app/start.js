// `npm start`: the built dashboard (adapter-node) on http://127.0.0.1:5173 unless HOST / PORT /
// ORIGIN say otherwise. Behind a TLS-terminating proxy set ORIGIN=https://your.host (the
// sign-in cookie is then Secure). HERALD_URL names Herald's GraphQL endpoint
// (default http://127.0.0.1:4000/graphql).
process.env.HOST ??= "127.0.0.1";
process.env.PORT ??= "5173";
process.env.ORIGIN ??= `http://${process.env.HOST}:${process.env.PORT}`;
await import("./build/index.js");
