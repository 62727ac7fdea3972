// Dependency keys of the dashboard's server loads (`depends` there, `invalidate` in the browser).
export const VIEWER_DATA = "herald:viewer";
export const sessionData = (sessionId: string) => `herald:session:${sessionId}`;
