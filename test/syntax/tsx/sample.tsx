import React from "react";

class Panel extends React.Component {
  render() {
    return <div>{this.props.title}</div>;
  }
}

function Title(props: { text: string }) {
  return <h1>{props.text}</h1>;
}
