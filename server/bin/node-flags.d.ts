/** The node flags each command runs with; see node-flags.js. */
export declare const nodeFlags: Readonly<Record<string, readonly string[]>>;
/** The flags `command` needs that this process was not started with. */
export declare function missingNodeFlags(command: string | undefined, execArgv?: readonly string[]): string[];
