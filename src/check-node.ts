/** Imported first by main.ts: stops on a Node.js older than vidops needs, before any other module loads. */
import { exitOnOldNode } from './node-version';

exitOnOldNode();
