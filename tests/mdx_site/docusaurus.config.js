// A Docusaurus site's configuration: ContextPull only notes that it is here, it never runs it.
module.exports = { title: "Kettle", url: "https://kettle.example", baseUrl: "/" };
