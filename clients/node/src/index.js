'use strict';
// gantry-client: the Node.js client of Gantry's client API. Guide: docs/clients.md, "Node.js"; types: index.d.ts.
const { connect, GantryClient, ALL_STATES } = require('./client');
const { GantryError, isFinished } = require('./wire');
const { wrapScript } = require('./spec');

module.exports = { connect, GantryClient, GantryError, isFinished, wrapScript, ALL_STATES };
